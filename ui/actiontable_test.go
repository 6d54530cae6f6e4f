package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// TestActionTableIsComplete: every action sits at its ID, has a verb, a
// key the help can name and a handler, and an action on a server has a
// check; the help lists every action's key, and no key runs two actions in
// the same place.
func TestActionTableIsComplete(t *testing.T) {
	k := DefaultKeyMap()
	table := actionTable()
	for i, a := range table {
		b := a.binding(&k)
		if a.id != ActionID(i) {
			t.Errorf("action %q is at %d but has ID %d", a.verb, i, a.id)
		}
		if a.verb == "" || len(b.Keys()) == 0 || b.Help().Key == "" || b.Help().Desc == "" || a.run == nil || a.reach == 0 {
			t.Errorf("incomplete action %q: keys %v help %+v", a.verb, b.Keys(), b.Help())
		}
		if (a.shared == nil) == (len(a.def.Keys()) == 0) {
			t.Errorf("action %q: a key of its own or a shared one, not both or neither", a.verb)
		}
		for _, o := range table[i+1:] {
			if a.reach&o.reach != 0 && tuikit.Binds([]key.Binding{b}, o.binding(&k)) {
				t.Errorf("a key of %v runs both %q and %q", b.Keys(), a.verb, o.verb)
			}
		}
	}
	help := k.FullHelp()
	for _, a := range table {
		found := false
		for _, g := range help {
			found = found || slices.ContainsFunc(g, func(b key.Binding) bool { return b.Help().Key == a.binding(&k).Help().Key })
		}
		if !found {
			t.Errorf("help does not list %q", a.verb)
		}
	}
}

// TestRemappedKeyIsUsedEverywhere: remap approve, enable, reload and the
// next tab; the footer, the help screen and the list's hints name the new
// keys, the new keys act and the old ones do nothing. Global keys are
// actions of the table like the server actions.
func TestRemappedKeyIsUsedEverywhere(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		k := DefaultKeyMap()
		k.Actions = map[ActionID]key.Binding{
			ActApprove: tuikit.Bind("Y", "approve", "Y"),
			ActEnable:  tuikit.Bind("E", "enable", "E"),
			ActReload:  tuikit.Bind("ctrl+g", "reload config", "ctrl+g"),
			ActNextTab: tuikit.Bind("]", "next tab", "]"),
		}
		h := newHarnessKeys(t, newFakeEngine(fixture()), 140, 30, &k)
		h.keys("esc")
		h.wantView("awaiting approval · Y approve · x reject") // the list's hint
		h.selectServer("off")
		h.wantView("E enable") // the footer
		h.keys("e", "ctrl+r")
		if got := h.eng.Actions(); len(got) != 0 {
			t.Fatalf("the old keys still act: %v", got)
		}
		h.keys("E")
		h.send(tea.KeyMsg{Type: tea.KeyCtrlG})
		if got := h.eng.Actions(); !slices.Equal(got, []string{"enable off", "reload "}) {
			t.Fatalf("the new keys: engine got %v", got)
		}
		h.keys("enter", "tab")
		h.wantView("] next tab", "[Overview]")
		h.keys("]")
		h.wantView("[Tools")
		h.keys("esc", "?")
		if v := h.view(); !strings.Contains(v, "Y      approve") && !strings.Contains(v, "Y approve") {
			t.Errorf("help does not name the remapped key:\n%s", v)
		}
		h.wantView("ctrl+g", "]")
	})
}

// TestLettersMeanOneThing: a letter does the same in the approval prompt
// as in the list (A approves, x rejects), and the list's sign-in key means
// nothing else in the prompt.
func TestLettersMeanOneThing(t *testing.T) {
	k := DefaultKeyMap()
	has := func(b key.Binding, want string) bool { return slices.Contains(b.Keys(), want) }
	for _, kk := range k.Action(ActApprove).Keys() {
		if !has(k.ApproveOne, kk) {
			t.Errorf("%q approves in the list but not in the prompt", kk)
		}
	}
	for _, kk := range k.Action(ActReject).Keys() {
		if !has(k.RejectOne, kk) {
			t.Errorf("%q rejects in the list but not in the prompt", kk)
		}
	}
	prompt := []key.Binding{k.ApproveOne, k.ApproveAll, k.RejectOne, k.Later}
	for _, a := range actionTable() {
		if a.enabled == nil {
			continue // not on a server: the prompt's keys are its own there
		}
		for _, kk := range a.binding(&k).Keys() {
			for _, p := range prompt {
				if has(p, kk) && p.Help().Desc != a.binding(&k).Help().Desc {
					t.Errorf("%q is %q in the list but %q in the prompt", kk, a.verb, p.Help().Desc)
				}
			}
		}
	}
}

// TestHelpFromAnywhere: ? opens help inside the approval prompt, listing
// that prompt's keys first; f1 does inside a form, where ? is typed; and at
// 60×15 the footer keeps "? help" however many actions a server offers.
func TestHelpFromAnywhere(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.wantView("? help") // the approval prompt's footer
		h.keys("?")
		h.wantView("This prompt", "approve all", "decide later")
		h.keys("esc")
		h.wantView("Project server changed since you approved it") // back in the prompt, nothing decided
		if got := h.eng.Actions(); len(got) != 0 {
			t.Fatalf("help decided something: %v", got)
		}
		h.keys("esc", "esc")
		h.selectServer("notes")
		h.keys("c", "enter") // the tool picker, then the first tool's form
		h.wantView("f1 help")
		h.keys("?")
		if strings.Contains(h.view(), "This prompt") {
			t.Fatal("? in a form opened help instead of typing")
		}
		h.keys("f1")
		h.wantView("This prompt")
	})
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 60, 15)
		h.keys("esc")
		h.selectServer("repo-tools") // approve, reject, enable… more than 60 columns of hints
		h.wantView("? help", "q quit")
	})
}
