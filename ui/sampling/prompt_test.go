package sampling

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/ui/styles"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// fakeAsk records the answers a prompt gives.
type fakeAsk struct {
	req engine.SampleRequest
	got []engine.SampleResponse
}

func (f *fakeAsk) Request() engine.SampleRequest  { return f.req }
func (f *fakeAsk) Answer(r engine.SampleResponse) { f.got = append(f.got, r) }

// TestPromptStandsAlone: given only an Env and its Ask, the prompt answers
// the request it stands for, takes text only while the reply is typed,
// and closes once it has answered.
func TestPromptStandsAlone(t *testing.T) {
	keys, st := tuikit.DefaultKeys(), styles.Default()
	env := &tuikit.Env{Ctx: t.Context(), St: &st, Keys: &keys, Width: 80, Height: 24}
	a := &fakeAsk{req: engine.SampleRequest{Server: "notes", MaxTokens: 10, Messages: []engine.SampleMessage{{Role: "user", Text: "hello"}}}}
	md, _ := New(env, a)
	if md.Answers() != any(a) || md.TakesText() {
		t.Fatalf("a new prompt: answers %v, takes text %v", md.Answers(), md.TakesText())
	}
	md, _ = md.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if md == nil || !md.TakesText() || len(a.got) != 0 {
		t.Fatalf("enter did not open the reply editor (answers so far %v)", a.got)
	}
	md, _ = md.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q?")})
	md, _ = md.Update(tea.KeyMsg{Type: tea.KeyCtrlS})
	if md != nil || len(a.got) != 1 || a.got[0] != (engine.SampleResponse{Choice: engine.SampleOnce, Text: "q?"}) {
		t.Fatalf("after ctrl+s: open %v, answers %+v", md != nil, a.got)
	}
}
