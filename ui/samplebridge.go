package ui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
)

// sampleAsk is one sampling request waiting for the person.
type sampleAsk = asked[engine.SampleRequest, engine.SampleResponse]

// sampleMsg delivers a sampling request to Update.
type sampleMsg struct{ a *sampleAsk }

// sampleGoneMsg says a shown sampling request's context ended.
type sampleGoneMsg struct{ a *sampleAsk }

// Sample asks the person about a sampling request through the TUI and waits
// for the answer; only ctx or Close end the wait, and both decline.
func (b *ElicitBridge) Sample(ctx context.Context, req engine.SampleRequest) (engine.SampleResponse, error) {
	return ask(b, b.samples, ctx, req, engine.SampleResponse{Choice: engine.SampleDecline})
}

// watchSampleGone reports when the request's context ends before the person
// answers.
func watchSampleGone(a *sampleAsk) tea.Cmd {
	return watchAsked(a, func(a *sampleAsk) tea.Msg { return sampleGoneMsg{a: a} })
}
