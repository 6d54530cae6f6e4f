package ui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/ui/sampling"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// sampleAsk is one sampling request waiting for the person.
type sampleAsk = asked[engine.SampleRequest, engine.SampleResponse]

var _ sampling.Ask = (*sampleAsk)(nil)

// Sample asks the person about a sampling request through the TUI and waits
// for the answer; only ctx or Close end the wait, and both decline.
func (b *ElicitBridge) Sample(ctx context.Context, req engine.SampleRequest) (engine.SampleResponse, error) {
	return ask(ctx, b, req, engine.SampleResponse{Choice: engine.SampleDecline}, newSamplePrompt, req.Server+" withdrew its sampling request")
}

// newSamplePrompt is the prompt of a sampling request (ui/sampling).
func newSamplePrompt(e *env, a *sampleAsk) (tuikit.Modal, tea.Cmd) { return sampling.New(e.Env, a) }
