package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// KeyMap is every key the TUI understands, with the help text shown by the
// footer and by the full help (?). Components match keys with key.Matches
// against these bindings only.
type KeyMap struct {
	Up, Down, Top, Bottom, PageUp, PageDown key.Binding
	Open, Back, NextTab, PrevTab, JumpTab   key.Binding

	Enable, Disable, Reconnect, CancelRetry, Authenticate, Approve, Reject key.Binding
	CallTool, ReadResource, WatchResource, DenyTool, GetPrompt, Reload     key.Binding
	AddServer                                                              key.Binding // + in the server list
	LogLevel                                                               key.Binding // on the Logs tab
	Filter, Help, Quit, ForceQuit                                          key.Binding

	// While typing a filter: keep it, clear it, move with the arrows (letters
	// are text then).
	FilterKeep, FilterClear, FilterUp, FilterDown key.Binding

	// Prompt keys: approval prompt and elicitation.
	ApproveOne, ApproveAll, RejectOne, Later key.Binding
	Submit, Decline, Cancel, OpenURL         key.Binding

	// Adding from the MCP Registry (+): search, move between the query and
	// the results, add the server shown, switch its scope.
	Search, SwitchFocus, Install, SwitchScope key.Binding

	// Sampling prompt keys: A and x keep their meaning (allow, refuse).
	// The help screen lists them as "This prompt" when asked from there
	// (the sampling prompt's Help), not in every help screen.
	SampleOnce, SampleAlways, SampleDecline, SampleNever, SendReply, ReplyDecline key.Binding
}

// DefaultKeyMap returns the TUI's keys.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Up:       b("↑/k", "up", "up", "k"),
		Down:     b("↓/j", "down", "down", "j"),
		Top:      b("g", "top", "g", "home"),
		Bottom:   b("G", "bottom", "G", "end"),
		PageUp:   b("pgup", "page up", "pgup", "ctrl+b"),
		PageDown: b("pgdn", "page down", "pgdown", "ctrl+f"),
		Open:     b("enter", "open", "enter"),
		Back:     b("esc", "back", "esc"),
		NextTab:  b("tab/→", "next tab", "tab", "right", "l"),
		PrevTab:  b("shift+tab/←", "prev tab", "shift+tab", "left", "h"),
		JumpTab:  b("1–9", "go to tab", "1", "2", "3", "4", "5", "6", "7", "8", "9"),

		Enable:        b("e", "enable", "e"),
		Disable:       b("d", "disable", "d"),
		Reconnect:     b("r", "reconnect", "r"),
		CancelRetry:   b("s", "stop retrying", "s"),
		Authenticate:  b("a", "authenticate", "a"),
		Approve:       b("A", "approve", "A"),
		Reject:        b("x", "reject", "x"),
		CallTool:      b("c", "call tool", "c"),
		ReadResource:  b("R", "read resource", "R"),
		WatchResource: b("w", "watch resource", "w"),
		DenyTool:      b("D", "deny/allow tool", "D"),
		GetPrompt:     b("p", "get prompt", "p"),
		Reload:        b("ctrl+r", "reload config", "ctrl+r"),
		AddServer:     b("+", "add from MCP Registry", "+"),
		LogLevel:      b("L", "log level (Logs tab)", "L"),
		Filter:        b("/", "filter", "/"),
		Help:          b("?", "help", "?", "f1"), // f1 where ? is text (a form)
		Quit:          b("q", "quit", "q", "ctrl+c"),
		ForceQuit:     b("ctrl+c", "quit from anywhere", "ctrl+c"),

		FilterKeep:  b("enter", "keep filter", "enter"),
		FilterClear: b("esc", "clear filter", "esc"),
		FilterUp:    b("↑", "up", "up"),
		FilterDown:  b("↓", "down", "down"),

		ApproveOne: b("A/enter", "approve", "A", "enter"),
		ApproveAll: b("*", "approve all", "*"),
		RejectOne:  b("x", "reject", "x"),
		Later:      b("esc", "decide later", "esc"),
		Submit:     b("enter", "accept", "enter"),
		Decline:    b("ctrl+d", "decline", "ctrl+d"),
		Cancel:     b("esc", "cancel", "esc"),
		OpenURL:    b("o", "open in browser", "o"),

		Search:      b("enter", "search", "enter"),
		SwitchFocus: b("tab", "query/results", "tab"),
		Install:     b("enter", "add", "enter"),
		SwitchScope: b("s", "user/local scope", "s"),

		SampleOnce:    b("enter", "reply once", "enter"),
		SampleAlways:  b("A", "always allow this server", "A"),
		SampleDecline: b("x", "decline", "x", "ctrl+d"),
		SampleNever:   b("X", "never for this server", "X"),
		SendReply:     b("ctrl+s", "send reply", "ctrl+s"),
		ReplyDecline:  b("esc", "decline", "esc"),
	}
}

// ShortHelp is the footer when no component supplies its own keys.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Open, k.Filter, k.Help, k.Quit} }

// HelpGroupTitles name the groups of FullHelp, in the same order. A
// letter means one thing everywhere: A approves and x rejects in the list
// and in the approval prompt alike, a signs in; the prompt's own keys (*
// approve all, esc decide later) have their column.
func (k KeyMap) HelpGroupTitles() []string {
	return []string{"Move", "Servers", "Use", "In prompts"}
}

// FullHelp is the help screen (?), one column per group of keys.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown, k.Open, k.Back, k.NextTab, k.PrevTab, k.JumpTab},
		append(actionKeys(&k, false), k.Reload, k.AddServer),
		append(actionKeys(&k, true), k.LogLevel, k.Filter, k.Help, k.Quit, k.ForceQuit),
		{k.ApproveOne, k.ApproveAll, k.RejectOne, k.Later, k.Submit, k.Decline, k.Cancel, k.OpenURL},
	}
}

// scrollBy is how far a movement key moves a cursor or a scroll offset:
// one line, one page, or to either end (a large number the caller clamps).
func (k *KeyMap) scrollBy(km tea.KeyMsg, page int) (int, bool) {
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

// actionKeys are the keys of the server actions that open a form (use)
// or not, in the table's order (actiontable.go): the help screen lists
// exactly what the footer offers.
func actionKeys(k *KeyMap, use bool) []key.Binding {
	var out []key.Binding
	for _, a := range serverActions() {
		if a.use == use {
			out = append(out, a.key(k))
		}
	}
	return out
}
