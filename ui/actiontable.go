package ui

import (
	"context"
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// serverAction is one thing the person can do to a server, as one value:
// its key (from the key map, so remapping works), its words, when it can run
// and why not, whether the footer offers it, and what it does. Key matching,
// the footer, the help screen, status-line hints and disabled reasons all
// read the table (serverActions); adding an action is one entry there plus
// its checks in actionchecks.go.
type serverAction struct {
	verb string // "enable": status lines and disabled reasons
	use  bool   // the help screen lists it under "Use" (it opens a form), not "Servers"
	key  func(*KeyMap) key.Binding
	// enabled reports whether the action can run on s now; reason says why
	// not, in the words after "verb: ".
	enabled func(s *engine.ServerSnapshot) (ok bool, reason string)
	// offered reports whether the footer shows it for s (when enabled): an
	// action that is always possible but rarely wanted stays off the
	// footer and still works by its key.
	offered func(s *engine.ServerSnapshot) bool
	// label is the footer's wording for s, when it differs from the key
	// map's ("retry now" while a retry waits).
	label func(s *engine.ServerSnapshot) string
	// run is what it does, given its own entry: a tea.Cmd for the engine,
	// or a modal to open.
	run func(m *Model, s *engine.ServerSnapshot, a serverAction) tea.Cmd
}

// serverActions is the table, in the order the footer shows the actions.
func serverActions() []serverAction {
	return []serverAction{
		{
			verb: "approve", key: func(k *KeyMap) key.Binding { return k.Approve }, enabled: canApprove, offered: approvalOpen,
			run: func(m *Model, s *engine.ServerSnapshot, _ serverAction) tea.Cmd { // never unseen: the prompt shows the definition first
				return m.push(&approvalModal{env: m.env, servers: []engine.ServerSnapshot{*s}, one: true}, nil)
			},
		},
		{verb: "reject", key: func(k *KeyMap) key.Binding { return k.Reject }, enabled: canReject, offered: awaiting, run: engineRun(Engine.Reject)},
		{verb: "enable", key: func(k *KeyMap) key.Binding { return k.Enable }, enabled: canEnable, run: engineRun(Engine.Enable)},
		{verb: "disable", key: func(k *KeyMap) key.Binding { return k.Disable }, enabled: canDisable, run: engineRun(Engine.Disable)},
		{verb: "reconnect", key: func(k *KeyMap) key.Binding { return k.Reconnect }, enabled: canReconnect, label: reconnectLabel, run: engineRun(Engine.Reconnect)},
		{verb: "stop retrying", key: func(k *KeyMap) key.Binding { return k.CancelRetry }, enabled: canStopRetrying, run: engineRun(Engine.CancelReconnect)},
		{verb: "authenticate", key: func(k *KeyMap) key.Binding { return k.Authenticate }, enabled: canAuthenticate, offered: needsSignIn, run: engineRun(Engine.Authenticate)},
		{verb: "call tool", use: true, key: func(k *KeyMap) key.Binding { return k.CallTool }, enabled: hasItems(tabTools), run: openCallTool},
		{verb: "read resource", use: true, key: func(k *KeyMap) key.Binding { return k.ReadResource }, enabled: hasItems(tabResources), run: openReadResource},
		{
			verb: "watch resource", use: true, key: func(k *KeyMap) key.Binding { return k.WatchResource },
			enabled: canWatch, offered: func(*engine.ServerSnapshot) bool { return false }, run: toggleWatch,
		},
		{
			verb: "deny tool", use: true, key: func(k *KeyMap) key.Binding { return k.DenyTool },
			enabled: hasItems(tabTools), offered: func(*engine.ServerSnapshot) bool { return false }, run: toggleDeny,
		},
		{verb: "get prompt", use: true, key: func(k *KeyMap) key.Binding { return k.GetPrompt }, enabled: hasItems(tabPrompts), run: openGetPrompt},
	}
}

// actionByVerb returns the table's entry for verb (tests, and the detail
// view's enter on an item).
func actionByVerb(verb string) (serverAction, bool) {
	for _, a := range serverActions() {
		if a.verb == verb {
			return a, true
		}
	}
	return serverAction{}, false
}

// check runs a's enabled test with the words the status line shows
// ("reconnect: server is disabled").
func (a serverAction) check(s *engine.ServerSnapshot) (bool, string) {
	ok, why := a.enabled(s)
	if ok {
		return true, ""
	}
	return false, a.verb + ": " + why
}

// footerBinding is a's key as the footer shows it for s.
func (a serverAction) footerBinding(k *KeyMap, s *engine.ServerSnapshot) key.Binding {
	b := a.key(k)
	if a.label != nil {
		if l := a.label(s); l != "" {
			b.SetHelp(b.Help().Key, l)
		}
	}
	return b
}

// engineRun makes a run func from an engine method taking a server name:
// the status line says it is under way ("retry now flaky…") until the
// engine answers.
func engineRun(f func(Engine, context.Context, string) error) func(*Model, *engine.ServerSnapshot, serverAction) tea.Cmd {
	return func(m *Model, s *engine.ServerSnapshot, a serverAction) tea.Cmd {
		shown := a.verb
		if a.label != nil && a.label(s) != "" {
			shown = a.label(s)
		}
		m.status = shown + " " + s.Name + "…"
		eng := m.env.eng
		return m.engineCmd(a.verb, s.Name, func(ctx context.Context, name string) error { return f(eng, ctx, name) })
	}
}

// engineCmd runs an engine action on a server in a tea.Cmd (Update never
// does I/O) and reports it as an actionMsg.
func (m *Model) engineCmd(verb, server string, f func(context.Context, string) error) tea.Cmd {
	ctx := m.env.ctx
	return func() tea.Msg { return actionMsg{verb: verb, server: server, err: f(ctx, server)} }
}

// retryWaits reports whether a reconnect is scheduled: r then runs it now.
func retryWaits(s *engine.ServerSnapshot) bool {
	return s.State == model.StatePending && s.Reason.Kind == model.ReasonRetryScheduled
}

func reconnectLabel(s *engine.ServerSnapshot) string {
	if retryWaits(s) {
		return "retry now"
	}
	return ""
}

// actionStatus is the status line for a finished action.
func actionStatus(m actionMsg) (string, bool) {
	if m.err != nil {
		return fmt.Sprintf("%s %s: %v", m.verb, m.server, m.err), true
	}
	return fmt.Sprintf("%s %s: done", m.verb, m.server), false
}
