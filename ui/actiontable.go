package ui

import (
	"context"
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/ui/status"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// ActionID names one action of the table (actionTable): code finds an
// action by it, never by its words. The constants follow the table's order.
type ActionID int

// The actions, in the table's order (the footer's, and within each group
// the help screen's).
const (
	ActOpenServer ActionID = iota // enter on the list: the server's detail view
	ActBack
	ActNextTab
	ActPrevTab
	ActJumpTab
	ActApprove
	ActReject
	ActEnable
	ActDisable
	ActReconnect
	ActReconnectAll
	ActStopRetrying
	ActAuthenticate
	ActReviewTools
	ActCallTool
	ActReadResource
	ActWatchResource
	ActDenyTool
	ActAllowHost
	ActGetPrompt
	ActReload
	ActAddServer
	ActOpenItem // enter on the detail view: the item or frame under the cursor
	ActLogLevel
	ActFilter
	ActHelp
	ActQuit
	ActForceQuit
)

// reach is where an action's key works; onKey looks in this order.
type reach uint8

const (
	anywhere  reach = 1 << iota // before any modal sees the key
	overModal                   // on the modal on top, before it sees the key
	onList                      // the server list, no modal open
	onDetail                    // the detail view, no modal open
	onScreen  = onList | onDetail
)

// action is one thing the person can do by a key, as one value: its key,
// its words, where it works, when it can run on a server and why not,
// whether the footer offers it, and what it does. Key matching, the
// footer, the help screen, status-line hints, disabled reasons and the
// README's key table all read the table; adding an action is one entry
// there (and its check in actionchecks.go), then go generate ./ui.
type action struct {
	id   ActionID
	verb string // "enable": status lines and disabled reasons
	help helpGroup
	// doc is what the README's key table says the key does; go generate
	// writes the table from it (ui/keytable_test.go checks it is current).
	doc string
	// shared is the action's key when prompts share it (open, back,
	// filter, help, quit); otherwise def is the action's own, which
	// KeyMap.Actions may remap.
	shared func(*tuikit.Keys) key.Binding
	def    key.Binding
	reach  reach
	// applies narrows reach by the screen's state (the detail view's tab,
	// what the modal on top offers); nil: wherever reach says.
	applies func(m *Model) bool
	// tabs are the detail tabs the action belongs to (c: Tools, L: Logs):
	// on the detail view the footer offers it there only, before the
	// others, so a tab's own keys are the ones a narrow footer keeps.
	tabs tabSet
	// onItem: on its tabs the action acts on the item selected there, the
	// one do hands it (press.item); with none on screen (a filter that
	// matches nothing) it says "nothing selected" and does nothing.
	onItem bool
	// footer reports whether the footer offers the action where it
	// applies (and, on a server, is enabled): nil offers it; an action
	// always possible but rarely wanted stays off the footer (never) and
	// still works by its key.
	footer func(m *Model, s *engine.ServerSnapshot) bool
	// enabled, set for an action on the selected server, reports whether
	// it can run on s now; reason says why not, in the words after "verb: ".
	enabled func(s *engine.ServerSnapshot) (ok bool, reason string)
	// label is the footer's wording for s, when it differs from the key
	// map's ("retry now" while a retry waits).
	label func(s *engine.ServerSnapshot) string
	// run is what it does: a tea.Cmd for the engine, or a modal to open.
	run func(m *Model, p press) tea.Cmd
}

// press is one press of an action's key: the action, the key, the server
// it acts on (nil for an action not on a server), and the item of the
// detail view's tab it acts on (-1 when the action is not on an item
// there: c on the overview opens a picker).
type press struct {
	a    action
	key  tea.KeyMsg
	s    *engine.ServerSnapshot
	item int
}

// tabSet is a set of detail tabs.
type tabSet uint16

// tabs is the set of ts.
func tabs(ts ...detailTab) tabSet {
	var set tabSet
	for _, t := range ts {
		set |= 1 << t
	}
	return set
}

// has reports whether t is in the set.
func (set tabSet) has(t detailTab) bool { return set&(1<<t) != 0 }

// actionTable is the table, in the order of ActionID.
//
//go:generate go test -run ^TestReadmeKeyTableIsGenerated$ . -update-readme
func actionTable() []action {
	return []action{
		{
			id: ActOpenServer, verb: "open", help: groupMove,
			doc:    "open the server's detail (overview, tools, resources, prompts, stderr, instructions, skills, logs, traffic)",
			shared: keyOpen, reach: onList, run: openServer,
		},
		{
			id: ActBack, verb: "back", help: groupMove,
			doc:    "back",
			shared: keyBack, reach: onScreen, footer: inDetail, run: goBack,
		},
		{
			id: ActNextTab, verb: "next tab", help: groupMove,
			doc: "next detail tab",
			def: tuikit.Bind("tab/→", "next tab", "tab", "right", "l"), reach: onDetail, run: nextTab,
		},
		{
			id: ActPrevTab, verb: "prev tab", help: groupMove,
			doc: "previous detail tab",
			def: tuikit.Bind("shift+tab/←", "prev tab", "shift+tab", "left", "h"), reach: onDetail, footer: never, run: prevTab,
		},
		{
			id: ActJumpTab, verb: "go to tab", help: groupMove,
			doc:   "go to a detail tab (8: the server's log messages; 9: its JSON-RPC traffic, see below)",
			def:   tuikit.Bind("1–9", "go to tab", "1", "2", "3", "4", "5", "6", "7", "8", "9"),
			reach: onDetail, footer: never, run: jumpTab,
		},
		{
			id: ActApprove, verb: "approve", help: groupServers,
			doc: "approve a project server",
			def: tuikit.Bind("A", "approve", "A"), reach: onScreen,
			enabled: canApprove, footer: approvalOpen, run: openApproval,
		},
		{
			id: ActReject, verb: "reject", help: groupServers,
			doc: "reject a project server",
			def: tuikit.Bind("x", "reject", "x"), reach: onScreen, enabled: canReject, footer: awaiting, run: engineRun(Engine.Reject),
		},
		{
			id: ActEnable, verb: "enable", help: groupServers,
			doc: "enable (saved in your private settings for the project)",
			def: tuikit.Bind("e", "enable", "e"), reach: onScreen, enabled: canEnable, run: engineRun(Engine.Enable),
		},
		{
			id: ActDisable, verb: "disable", help: groupServers,
			doc: "disable (saved in your private settings for the project)",
			def: tuikit.Bind("d", "disable", "d"), reach: onScreen, enabled: canDisable, run: engineRun(Engine.Disable),
		},
		{
			id: ActReconnect, verb: "reconnect", help: groupServers,
			doc: "reconnect, or retry now while a retry is scheduled",
			def: tuikit.Bind("r", "reconnect", "r"), reach: onScreen,
			enabled: canReconnect, label: reconnectLabel, run: reconnect,
		},
		{
			id: ActReconnectAll, verb: "reconnect all", help: groupServers,
			doc: "reconnect every server that may run and is not connected (failed, given up, waiting to retry); connected ones are left alone; the status line counts those that connected and says why the others did not",
			def: tuikit.Bind("ctrl+l", "reconnect all", "ctrl+l"), reach: onScreen, footer: never, run: reconnectAll,
		},
		{
			id: ActStopRetrying, verb: "stop retrying", help: groupServers,
			doc: "stop a scheduled retry",
			def: tuikit.Bind("s", "stop retrying", "s"), reach: onScreen,
			enabled: canStopRetrying, run: engineRun(Engine.CancelReconnect),
		},
		{
			id: ActAuthenticate, verb: "authenticate", help: groupServers,
			doc: "authenticate (OAuth sign-in)",
			def: tuikit.Bind("a", "authenticate", "a"), reach: onScreen,
			enabled: canAuthenticate, footer: needsSignIn, run: engineRun(Engine.Authenticate),
		},
		{
			id: ActReviewTools, verb: "review tools", help: groupServers,
			doc: "review what a server tells a model that changed since you accepted it (its row then says \"⚠ tools changed: N withheld\"): a word diff of each description, a diff of each schema, the scan's findings beside them; A/enter accept the one shown, `*` accept all, x keep withholding it, esc close (see [Tool pinning](#tool-pinning-the-poisoning-scan-and-the-lock-file))",
			def: tuikit.Bind("v", "review", "v"), reach: onScreen,
			enabled: canReview, run: openReview,
		},
		{
			id: ActCallTool, verb: "call tool", help: groupUse,
			doc: "call a tool (a form generated from its input schema)",
			def: tuikit.Bind("c", "call tool", "c"), reach: onScreen,
			tabs: tabs(tabTools), onItem: true, enabled: hasItems(tabTools), run: openCallTool,
		},
		{
			id: ActReadResource, verb: "read resource", help: groupUse,
			doc: "read a resource (a resource template's arguments in a form, with the server's suggestions when it offers completions: ctrl+e completes what is typed, and on an empty field lists them to choose from, or says there are none)",
			def: tuikit.Bind("R", "read resource", "R"), reach: onScreen,
			tabs: tabs(tabResources), onItem: true, enabled: hasItems(tabResources), run: openReadResource,
		},
		{
			id: ActWatchResource, verb: "watch resource", help: groupUse,
			doc: "in the resources tab: watch the selected resource (where the server offers subscriptions): its row shows when it last changed and its new content, re-read on every update; renewed after a reconnect; `w` again stops",
			def: tuikit.Bind("w", "watch resource", "w"), reach: onScreen,
			tabs: tabs(tabResources), onItem: true, enabled: canWatch, footer: inDetail, run: toggleWatch,
		},
		{
			id: ActDenyTool, verb: "deny tool", help: groupUse,
			doc: "in the tools tab: deny the selected tool (a `permissions.deny` rule for `mcp__server__tool` in your private settings; agents using your settings no longer get it), again to allow it; the overview's Context line names the tools to deny when a server's definitions cost over 10 000 tokens",
			def: tuikit.Bind("D", "deny/allow tool", "D"), reach: onScreen,
			tabs: tabs(tabTools), onItem: true, enabled: hasItems(tabTools), footer: inDetail, run: toggleDeny,
		},
		{
			id: ActAllowHost, verb: "allow blocked host", help: groupServers,
			doc: "in the stderr tab of a sandboxed server: add the host its proxy last refused (\"blocked connection to api.example.com:443\"; taken from the proxy's report, never from the log's text) to its sandbox's network list, in your user or local settings where the server is defined (never the project's `.mcp.json`); the server restarts with it, and a host once allowed is no longer shown as blocked",
			def: tuikit.Bind("H", "add host", "H"), reach: onScreen,
			tabs: tabs(tabStderr), enabled: canAllowHost, footer: inDetail, run: allowHost,
		},
		{
			id: ActGetPrompt, verb: "get prompt", help: groupUse,
			doc: "get a prompt (its arguments in a form, with the server's suggestions when it offers completions, as for `R`)",
			def: tuikit.Bind("p", "get prompt", "p"), reach: onScreen,
			tabs: tabs(tabPrompts), onItem: true, enabled: hasItems(tabPrompts), run: openGetPrompt,
		},
		{
			id: ActReload, verb: "reload", help: groupServers,
			doc: "reload the config files",
			def: tuikit.Bind("ctrl+r", "reload config", "ctrl+r"), reach: onScreen, footer: never, run: reload,
		},
		{
			id: ActAddServer, verb: "add from the MCP Registry", help: groupServers,
			doc: "add a server from the MCP Registry: search, enter shows what it runs, what it asks for and where it goes (your user scope; `s` switches to local), enter asks for its name and fields in a form (secrets typed hidden, kept in your keychain), then shows the definition before writing it",
			def: tuikit.Bind("+", "add from MCP Registry", "+"), reach: onList, footer: hasRegistry, run: addServer,
		},
		{id: ActOpenItem, verb: "open", help: notListed, shared: keyOpen, reach: onDetail, tabs: tabs(tabTraffic), onItem: true, run: openFromDetail},
		{
			id: ActLogLevel, verb: "set log level", help: groupUse,
			doc: "in the logs tab: step the level and ask the server for it (`logging/setLevel`, sent again after a reconnect, or on protocol 2026-07-28 the level in every request's `_meta`)",
			def: tuikit.Bind("L", "log level (Logs tab)", "L"), reach: onDetail,
			applies: onLogsTab, tabs: tabs(tabLogs), run: cycleLogLevel,
		},
		{
			id: ActFilter, verb: "filter", help: groupUse,
			doc:    "filter the server list, a tools/resources/prompts tab or a picker: names that match come first, then descriptions that match, and the cursor is on the first (enter keeps the filter, esc clears it; `/` again selects the kept filter: typing replaces it, backspace, ← or → edit it)",
			shared: keyFilter, reach: onScreen, applies: canFilter, run: startFilter,
		},
		{
			id: ActHelp, verb: "help", help: groupUse,
			doc:    "all keys, from anywhere (f1 in a form); inside a prompt its own keys come first",
			shared: keyHelp, reach: onScreen | overModal, applies: helpIsRoots, run: openHelp,
		},
		{
			id: ActQuit, verb: "quit", help: groupUse,
			doc:    "quit from the screens, a picker, a result, the help, and the approval prompt, which leaves the servers awaiting approval; a prompt a server or a call waits on keeps q and says so",
			shared: keyQuit, reach: onScreen | overModal, run: quitTUI,
		},
		{
			id: ActForceQuit, verb: "quit", help: groupUse,
			doc: "quit from anywhere",
			def: tuikit.Bind("ctrl+c", "quit from anywhere", "ctrl+c"), reach: anywhere, footer: never, run: forceQuit,
		},
	}
}

// The shared keys the table's actions use.
func keyOpen(k *tuikit.Keys) key.Binding   { return k.Open }
func keyBack(k *tuikit.Keys) key.Binding   { return k.Back }
func keyFilter(k *tuikit.Keys) key.Binding { return k.Filter }
func keyHelp(k *tuikit.Keys) key.Binding   { return k.Help }
func keyQuit(k *tuikit.Keys) key.Binding   { return k.Quit }

// binding is a's key in k.
func (a action) binding(k *KeyMap) key.Binding {
	if a.shared != nil {
		return a.shared(&k.Keys)
	}
	if b, ok := k.Actions[a.id]; ok {
		return b
	}
	return a.def
}

// works reports whether a's key does something at r in m's state.
func (a action) works(m *Model, r reach) bool {
	return a.reach&r != 0 && (a.applies == nil || a.applies(m))
}

// check runs a's enabled test with the words the status line shows
// ("reconnect: disabled by you (enable it to connect)").
func (a action) check(s *engine.ServerSnapshot) (bool, string) {
	ok, why := a.enabled(s)
	if ok {
		return true, ""
	}
	return false, a.verb + ": " + why
}

// allows reports whether a can run on s now.
func (a action) allows(s *engine.ServerSnapshot) bool {
	ok, _ := a.enabled(s)
	return ok
}

// footerBinding is a's key as the footer shows it for s.
func (a action) footerBinding(k *KeyMap, s *engine.ServerSnapshot) key.Binding {
	b := a.binding(k)
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
func engineRun(f func(Engine, context.Context, string) error) func(*Model, press) tea.Cmd {
	return func(m *Model, p press) tea.Cmd {
		a, s := p.a, p.s
		shown := a.verb
		if a.label != nil && a.label(s) != "" {
			shown = a.label(s)
		}
		m.status = shown + " " + s.Name + "…"
		eng := m.env.eng
		return m.engineCmd(a.verb, s.Name, func(ctx context.Context, name string) error { return f(eng, ctx, name) })
	}
}

// reconnect asks the engine to reconnect the server (or retry now) and
// reports the attempt's outcome, not only that it was asked for: the status
// line says "reconnect flaky…" until then.
func reconnect(m *Model, p press) tea.Cmd {
	shown := p.a.verb
	if l := reconnectLabel(p.s); l != "" {
		shown = l
	}
	m.status = shown + " " + p.s.Name + "…"
	eng, ctx, name := m.env.eng, m.env.Ctx, p.s.Name
	return func() tea.Msg {
		s, err := eng.ReconnectOutcome(ctx, name)
		return reconnectedMsg{server: name, s: s, err: err}
	}
}

// reconnectedMsg is the outcome of a reconnect: the server's snapshot once
// the attempt ended, or why it could not start.
type reconnectedMsg struct {
	server string
	s      engine.ServerSnapshot
	err    error
}

// Report words the outcome (ui/status).
func (m reconnectedMsg) Report() (string, bool) {
	if m.err != nil {
		return actionMsg{verb: "reconnect", server: m.server, err: m.err}.Report()
	}
	return status.Reconnected(&m.s)
}

// engineCmd runs an engine action on a server in a tea.Cmd (Update never
// does I/O) and reports it as an actionMsg.
func (m *Model) engineCmd(verb, server string, f func(context.Context, string) error) tea.Cmd {
	ctx := m.env.Ctx
	return func() tea.Msg { return actionMsg{verb: verb, server: server, err: f(ctx, server)} }
}

func reconnectLabel(s *engine.ServerSnapshot) string {
	if status.RetryWaits(s) {
		return "retry now"
	}
	return ""
}

// actionMsg reports that an engine action finished.
type actionMsg struct {
	verb, server string
	err          error
}

// Report is the status line for a finished action.
func (m actionMsg) Report() (string, bool) {
	if m.err != nil {
		return fmt.Sprintf("%s %s: %v", m.verb, m.server, m.err), true
	}
	return fmt.Sprintf("%s %s: done", m.verb, m.server), false
}
