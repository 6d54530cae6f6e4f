package tuikit

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Keys are the keys the screens and prompts share, with the help text the
// footer and the help screen (?) show: movement, open and back, the
// filter, help and quit, and every prompt's own keys. Screens match keys
// with key.Matches against these bindings only. The keys of the root's
// actions (the server actions, reload, tabs…) are the action table's own
// (ui.KeyMap).
type Keys struct {
	Up, Down, Top, Bottom, PageUp, PageDown key.Binding
	Open, Back, Filter, Help, Quit          key.Binding

	// While typing a filter: keep it, clear it, move with the arrows (letters
	// are text then).
	FilterKeep, FilterClear, FilterUp, FilterDown key.Binding

	// Prompt keys: approval prompt and elicitation.
	ApproveOne, ApproveAll, RejectOne, Later key.Binding
	Submit, Decline, Cancel, OpenURL         key.Binding
	// CopyURL copies the sign-in URL to the clipboard (through the
	// terminal, so it works over SSH too).
	CopyURL key.Binding

	// Adding from the MCP Registry (+): search, move between the query and
	// the results, add the server shown, switch its scope.
	Search, SwitchFocus, Install, SwitchScope key.Binding

	// In a form's text field: ctrl+e completes what is typed with the
	// server's suggestion, and on an empty field lists the suggestions; in
	// that list the arrows move, enter takes one, esc closes it.
	Complete, SuggestUp, SuggestDown, SuggestTake, SuggestClose key.Binding

	// Sampling prompt keys: A and x keep their meaning (allow, refuse).
	// The help screen lists them as "This prompt" when asked from there
	// (the sampling prompt's Help), not in every help screen.
	SampleOnce, SampleAlways, SampleDecline, SampleNever, SendReply, ReplyDecline key.Binding
}

// Bind is a key binding with its help: what the footer shows (help, desc)
// and the keys that press it.
func Bind(help, desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

// DefaultKeys returns the shared keys.
func DefaultKeys() Keys {
	return Keys{
		Up:       Bind("↑/k", "up", "up", "k"),
		Down:     Bind("↓/j", "down", "down", "j"),
		Top:      Bind("g", "top", "g", "home"),
		Bottom:   Bind("G", "bottom", "G", "end"),
		PageUp:   Bind("pgup", "page up", "pgup", "ctrl+b"),
		PageDown: Bind("pgdn", "page down", "pgdown", "ctrl+f"),
		Open:     Bind("enter", "open", "enter"),
		Back:     Bind("esc", "back", "esc"),
		Filter:   Bind("/", "filter", "/"),
		Help:     Bind("?", "help", "?", "f1"), // f1 where ? is text (a form)
		Quit:     Bind("q", "quit", "q", "ctrl+c"),

		FilterKeep:  Bind("enter", "keep filter", "enter"),
		FilterClear: Bind("esc", "clear filter", "esc"),
		FilterUp:    Bind("↑", "up", "up"),
		FilterDown:  Bind("↓", "down", "down"),

		ApproveOne: Bind("A/enter", "approve", "A", "enter"),
		ApproveAll: Bind("*", "approve all", "*"),
		RejectOne:  Bind("x", "reject", "x"),
		Later:      Bind("esc", "decide later", "esc"),
		Submit:     Bind("enter", "accept", "enter"),
		Decline:    Bind("ctrl+d", "decline", "ctrl+d"),
		Cancel:     Bind("esc", "cancel", "esc"),
		OpenURL:    Bind("o", "open in browser", "o"),
		CopyURL:    Bind("y", "copy URL", "y"),

		Search:      Bind("enter", "search", "enter"),
		SwitchFocus: Bind("tab", "query/results", "tab"),
		Install:     Bind("enter", "add", "enter"),
		SwitchScope: Bind("s", "user/local scope", "s"),

		Complete:     Bind("ctrl+e", "complete", "ctrl+e"),
		SuggestUp:    Bind("↑", "previous", "up", "ctrl+p"),
		SuggestDown:  Bind("↓", "next", "down", "ctrl+n"),
		SuggestTake:  Bind("enter", "take", "enter", "ctrl+e"),
		SuggestClose: Bind("esc", "close", "esc"),

		SampleOnce:    Bind("enter", "reply once", "enter"),
		SampleAlways:  Bind("A", "always allow this server", "A"),
		SampleDecline: Bind("x", "decline", "x", "ctrl+d"),
		SampleNever:   Bind("X", "never for this server", "X"),
		SendReply:     Bind("ctrl+s", "send reply", "ctrl+s"),
		ReplyDecline:  Bind("esc", "decline", "esc"),
	}
}

// ScrollBy is how far a movement key moves a cursor or a scroll offset:
// one line, one page, or to either end (a large number the caller clamps).
func (k *Keys) ScrollBy(km tea.KeyMsg, page int) (int, bool) {
	switch {
	case key.Matches(km, k.Up):
		return -1, true
	case key.Matches(km, k.Down):
		return 1, true
	case key.Matches(km, k.PageUp):
		return -page, true
	case key.Matches(km, k.PageDown):
		return page, true
	case key.Matches(km, k.Top):
		return -1 << 30, true
	case key.Matches(km, k.Bottom):
		return 1 << 30, true
	}
	return 0, false
}

// Binds reports whether one of bs answers to a key of want: a modal whose
// Help lists the quit key lets q quit, one that binds the help key
// handles it itself.
func Binds(bs []key.Binding, want key.Binding) bool {
	for _, b := range bs {
		for _, k := range b.Keys() {
			for _, w := range want.Keys() {
				if k == w {
					return true
				}
			}
		}
	}
	return false
}
