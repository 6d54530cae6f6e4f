package ui

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/ui/addserver"
	"github.com/mcpdeck/mcpdeck/ui/contextcost"
	"github.com/mcpdeck/mcpdeck/ui/promptguard"
	"github.com/mcpdeck/mcpdeck/ui/status"
	"github.com/mcpdeck/mcpdeck/ui/styles"
	"github.com/mcpdeck/mcpdeck/ui/tokencosts"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// Options configure the TUI. Every field is optional.
type Options struct {
	// Context bounds every engine action; quitting cancels it.
	Context context.Context
	// Now is the clock for countdowns (tests inject a fixed one).
	Now func() time.Time
	// Elicit receives the engine's elicitation requests (see NewElicitBridge).
	Elicit *ElicitBridge
	// OpenURL opens a URL in a browser (the CLI passes the one browser
	// opener, launch.OpenBrowser, under managed policy); nil opens
	// nothing and the URL stays on screen for copying.
	OpenURL func(ctx context.Context, url string) error
	// CopyText puts text on the clipboard (the CLI sends it to the
	// terminal as OSC 52, which also reaches the clipboard of the machine
	// an SSH session comes from); nil copies nothing and says so.
	CopyText func(text string) error
	Styles   *styles.Styles
	Keys     *KeyMap
	// Title is shown at the top left ("mcpdeck", "mcpdeck demo").
	Title string
	// Tokens counts tool definitions' tokens for the list (ui/tokencosts);
	// nil = the TUI's own (loaded on first count).
	Tokens *contextcost.Counter
	// Registry lets + add a server from the MCP Registry; nil turns it off.
	Registry addserver.Registry
}

// errNoBrowser is what opening a URL says when the TUI was given no
// opener.
var errNoBrowser = errors.New("no browser opener")

// errNoClipboard is what copying says when the TUI was given no way to.
var errNoClipboard = errors.New("no clipboard here")

// tickMsg drives pending countdowns; it runs only while one is on screen.
type tickMsg time.Time

// Model is the root of the TUI. Its Update handles the engine's and the
// bridge's messages, reads keys in the action table, and delegates
// everything else to the list, the detail view or the modal on top. It
// knows a modal only through tuikit.Modal.
type Model struct {
	env     *env
	keys    KeyMap
	actions []action // actionTable(), by ActionID
	st      styles.Styles
	now     func() time.Time
	cancel  context.CancelFunc
	bridge  *ElicitBridge
	title   string

	snap   engine.Snapshot
	counts [status.NumKinds]int // servers per kind, for the header

	list   serverList
	costs  *tokencosts.Costs
	detail *detailView
	modals []tuikit.Modal
	asked  map[string]string // approval prompts shown this session: name → hash
	// authShown is the sign-in URL last shown per server.
	authShown map[string]string
	ticking   bool
	// floods is the burst of declined requests (AskFlood.Seq) last told
	// per server; floodOn names the server whose notice the status line
	// shows, as floodText, while nothing replaced it (flood.go).
	floods    map[string]int
	floodOn   string
	floodText string
	// guard keeps a key typed before a prompt was on screen from
	// answering it (ui/promptguard).
	guard promptguard.Guard

	footerDrawn footerCache // footer.go

	status    string
	statusErr bool
	width     int
	height    int
}

// New builds the TUI on eng and renders its current snapshot at once; the
// connecting happens in the engine while the first frame is on screen.
func New(eng Engine, opts Options) *Model {
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	m := &Model{now: opts.Now, cancel: cancel, bridge: opts.Elicit, title: opts.Title, actions: actionTable(), asked: map[string]string{}, authShown: map[string]string{}, floods: map[string]int{}}
	if m.now == nil {
		m.now = time.Now
	}
	if m.title == "" {
		m.title = "mcpdeck"
	}
	if opts.Styles != nil {
		m.st = *opts.Styles
	} else {
		m.st = styles.Default()
	}
	if opts.Keys != nil {
		m.keys = *opts.Keys
	} else {
		m.keys = DefaultKeyMap()
	}
	open := opts.OpenURL
	if open == nil {
		open = func(context.Context, string) error { return errNoBrowser }
	}
	copyText := opts.CopyText
	if copyText == nil {
		copyText = func(string) error { return errNoClipboard }
	}
	m.env = &env{Env: &tuikit.Env{Ctx: ctx, St: &m.st, Keys: &m.keys.Keys}, eng: eng, openURL: open, copyText: copyText, reg: opts.Registry}
	m.list = newServerList(&m.st, &m.keys.Keys, m.now, statusHints(&m.keys))
	m.costs = tokencosts.New(opts.Tokens)
	m.list.costs = m.costs
	m.resize(80, 24)
	m.applySnapshot(eng.Snapshot())
	return m
}

// Init starts the snapshot bridge, the elicitation bridge, the countdown and
// the approval prompt for project servers waiting for the person.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{waitSnapshot(m.env.eng.Updates()), m.maybeTick(), m.askApprovals(), m.costs.Refresh(m.snap.Servers)}
	if m.bridge != nil {
		cmds = append(cmds, m.bridge.wait())
	}
	return tea.Batch(append(cmds, m.guardTop())...)
}

// Update handles one message, then guards a prompt that came on top. It
// never blocks and never does I/O.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	if g := m.guardTop(); g != nil {
		cmd = tea.Batch(cmd, g)
	}
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return tea.Batch(m.broadcast(msg), m.maybeTick())
	case snapshotMsg:
		m.applySnapshot(msg.snap)
		return tea.Batch(waitSnapshot(m.env.eng.Updates()), m.maybeTick(), m.askApprovals(), m.costs.Refresh(msg.snap.Servers))
	case tokencosts.Msg:
		return m.applyCost(msg)
	case updatesClosedMsg:
		return nil
	case tickMsg:
		m.ticking = false
		return m.maybeTick()
	case promptguard.ArmMsg:
		return m.guard.Arm(msg)
	case askMsg:
		return tea.Batch(m.push(msg.open(m.env)), m.bridge.wait(), msg.gone)
	case withdrawnMsg:
		m.drop(msg.q)
		m.status, m.statusErr = msg.line, false
		return nil
	case tea.KeyMsg:
		m.guard.KeyRead()
		return tea.Batch(m.onKey(msg), m.maybeTick()) // a countdown may have come into view
	case tuikit.Reported:
		m.status, m.statusErr = msg.Report()
		if _, all := msg.(tuikit.Broadcast); all {
			return m.broadcast(msg)
		}
		return nil
	case tuikit.Broadcast, spinner.TickMsg:
		return m.broadcast(msg)
	}
	return m.updateTop(msg)
}

// applyCost stores a finished token count and starts the next.
func (m *Model) applyCost(msg tokencosts.Msg) tea.Cmd {
	next := m.costs.Apply(msg)
	if m.detail != nil && m.detail.srv.Name == msg.Server() {
		m.detail.overview = nil // its Context line changed
	}
	return next
}

func (m *Model) resize(w, h int) {
	m.width, m.height = max(w, 20), max(h, 5)
	m.env.Width, m.env.Height = m.width, m.height
	m.list.SetSize(m.width, m.bodyHeight())
	if m.detail != nil {
		m.detail.SetSize(m.width, m.bodyHeight())
	}
}

// bodyHeight is the screen minus header, status line and footer.
func (m *Model) bodyHeight() int { return max(m.height-3, 1) }

func (m *Model) applySnapshot(s engine.Snapshot) {
	m.snap = s
	m.counts = [status.NumKinds]int{}
	for i := range s.Servers {
		m.counts[status.KindOf(&s.Servers[i])]++ // each counted once, as the list shows it
	}
	m.list.SetServers(s.Servers, s.Problems)
	m.syncAuth()
	m.tellFloods()
	if m.detail != nil {
		if sv := m.find(m.detail.srv.Name); sv != nil {
			m.detail.SetServer(*sv)
		} else {
			m.status, m.statusErr = m.detail.srv.Name+" is no longer in the configuration", true
			m.detail = nil
		}
	}
}

func (m *Model) find(name string) *engine.ServerSnapshot {
	for i := range m.snap.Servers {
		if m.snap.Servers[i].Name == name {
			return &m.snap.Servers[i]
		}
	}
	return nil
}

// maybeTick starts the 1 s countdown tick if a countdown is on screen.
func (m *Model) maybeTick() tea.Cmd {
	if m.ticking || !m.countsDown() {
		return nil
	}
	m.ticking = true
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// countsDown reports whether the screen shows a countdown to a retry: a
// row of the list, or the server the detail view shows.
func (m *Model) countsDown() bool {
	if m.detail != nil {
		return status.RetryWaits(&m.detail.srv)
	}
	return m.list.countsDown()
}

// broadcast gives msg to every modal (results find the modal that started them).
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	kept := m.modals[:0]
	for _, md := range m.modals {
		nm, cmd := md.Update(msg)
		cmds = append(cmds, cmd)
		if nm != nil {
			kept = append(kept, nm)
		}
	}
	m.modals = kept
	return tea.Batch(cmds...)
}

// updateTop gives msg to the modal on top, else to the list's filter.
func (m *Model) updateTop(msg tea.Msg) tea.Cmd {
	if n := len(m.modals); n > 0 {
		nm, cmd := m.modals[n-1].Update(msg)
		m.setTop(nm)
		return cmd
	}
	return m.list.Update(msg)
}

func (m *Model) setTop(nm tuikit.Modal) {
	n := len(m.modals)
	if nm == nil {
		m.modals = m.modals[:n-1]
	} else {
		m.modals[n-1] = nm
	}
}

// modalFor is the index of the modal answering q, -1 for none.
func (m *Model) modalFor(q any) int {
	if q == nil {
		return -1
	}
	for i, md := range m.modals {
		if md.Answers() == q {
			return i
		}
	}
	return -1
}

// tell gives msg to the modal answering q, which may close itself; it
// reports whether one did.
func (m *Model) tell(q any, msg tea.Msg) (tea.Cmd, bool) {
	i := m.modalFor(q)
	if i < 0 {
		return nil, false
	}
	nm, cmd := m.modals[i].Update(msg)
	if nm == nil {
		m.modals = slices.Delete(m.modals, i, i+1)
	} else {
		m.modals[i] = nm
	}
	return cmd, true
}

// drop removes the prompts answering q (a request the server withdrew).
func (m *Model) drop(q any) {
	if q == nil {
		return
	}
	m.modals = slices.DeleteFunc(m.modals, func(md tuikit.Modal) bool { return md.Answers() == q })
}
