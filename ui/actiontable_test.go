package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// TestActionTableIsComplete: every action has a verb, a key the help can
// name, a check and a handler; verbs and keys are unique.
func TestActionTableIsComplete(t *testing.T) {
	k := DefaultKeyMap()
	verbs, keys := map[string]bool{}, map[string]string{}
	for _, a := range serverActions() {
		b := a.key(&k)
		if a.verb == "" || len(b.Keys()) == 0 || b.Help().Key == "" || b.Help().Desc == "" || a.enabled == nil || a.run == nil {
			t.Errorf("incomplete action %q: keys %v help %+v", a.verb, b.Keys(), b.Help())
		}
		if verbs[a.verb] {
			t.Errorf("verb %q twice", a.verb)
		}
		verbs[a.verb] = true
		for _, kk := range b.Keys() {
			if other, dup := keys[kk]; dup {
				t.Errorf("key %q runs both %q and %q", kk, other, a.verb)
			}
			keys[kk] = a.verb
		}
	}
	help := k.FullHelp()
	for _, a := range serverActions() {
		found := false
		for _, g := range help {
			found = found || slices.ContainsFunc(g, func(b key.Binding) bool { return b.Help().Key == a.key(&k).Help().Key })
		}
		if !found {
			t.Errorf("help does not list %q", a.verb)
		}
	}
}

// TestRemappedKeyIsUsedEverywhere: remap approve and enable; the footer,
// the help screen and the list's hints name the new keys, the new keys act
// and the old ones do nothing.
func TestRemappedKeyIsUsedEverywhere(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		k := DefaultKeyMap()
		k.Approve = key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "approve"))
		k.Enable = key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "enable"))
		h := newHarnessKeys(t, newFakeEngine(fixture()), 140, 30, &k)
		h.keys("esc")
		h.wantView("awaiting approval · Y approve · x reject") // the list's hint
		h.selectServer("off")
		h.wantView("E enable") // the footer
		h.keys("e")
		if got := h.eng.Actions(); len(got) != 0 {
			t.Fatalf("the old key still enables: %v", got)
		}
		h.keys("E")
		if got := h.eng.Actions(); !slices.Equal(got, []string{"enable off"}) {
			t.Fatalf("the new key: engine got %v", got)
		}
		h.keys("?")
		if v := h.view(); !strings.Contains(v, "Y      approve") && !strings.Contains(v, "Y approve") {
			t.Errorf("help does not name the remapped key:\n%s", v)
		}
	})
}

// TestLettersMeanOneThing: a letter does the same in the approval prompt
// as in the list (A approves, x rejects), and the list's sign-in key means
// nothing else in the prompt.
func TestLettersMeanOneThing(t *testing.T) {
	k := DefaultKeyMap()
	has := func(b key.Binding, want string) bool { return slices.Contains(b.Keys(), want) }
	for _, kk := range k.Approve.Keys() {
		if !has(k.ApproveOne, kk) {
			t.Errorf("%q approves in the list but not in the prompt", kk)
		}
	}
	for _, kk := range k.Reject.Keys() {
		if !has(k.RejectOne, kk) {
			t.Errorf("%q rejects in the list but not in the prompt", kk)
		}
	}
	prompt := []key.Binding{k.ApproveOne, k.ApproveAll, k.RejectOne, k.Later}
	for _, a := range serverActions() {
		for _, kk := range a.key(&k).Keys() {
			for _, p := range prompt {
				if has(p, kk) && p.Help().Desc != a.key(&k).Help().Desc {
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
