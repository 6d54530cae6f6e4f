package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/styles"
)

// Options configure the TUI. Every field is optional.
type Options struct {
	// Context bounds every engine action; quitting cancels it.
	Context context.Context
	// Now is the clock for countdowns (tests inject a fixed one).
	Now func() time.Time
	// Elicit receives the engine's elicitation requests (see NewElicitBridge).
	Elicit *ElicitBridge
	// OpenURL opens a URL in a browser; nil = OpenBrowser.
	OpenURL func(ctx context.Context, url string) error
	Styles  *styles.Styles
	Keys    *KeyMap
	// Title is shown at the top left ("mcpdeck", "mcpdeck demo").
	Title string
}

// tickMsg drives pending countdowns; it runs only while a retry is scheduled.
type tickMsg time.Time

// Model is the root of the TUI. Its Update handles the global keys and the
// engine's messages and delegates everything else to the list, the detail
// view or the modal on top.
type Model struct {
	env    *env
	keys   KeyMap
	st     styles.Styles
	now    func() time.Time
	cancel context.CancelFunc
	bridge *ElicitBridge
	title  string

	snap     engine.Snapshot
	counts   [model.StateDisabled + 1]int
	awaiting int
	retrying bool // some server has a scheduled retry: the countdown ticks

	list   serverList
	detail *detailView
	modals []modal
	asked  map[string]string // approval prompts shown this session: name → hash
	// authShown is the sign-in URL last shown per server.
	authShown map[string]string
	ticking   bool

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
	m := &Model{now: opts.Now, cancel: cancel, bridge: opts.Elicit, title: opts.Title, asked: map[string]string{}, authShown: map[string]string{}}
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
		open = OpenBrowser
	}
	m.env = &env{ctx: ctx, eng: eng, st: &m.st, keys: &m.keys, openURL: open}
	m.list = newServerList(&m.st, &m.keys, m.now)
	m.resize(80, 24)
	m.applySnapshot(eng.Snapshot())
	return m
}

// Init starts the snapshot bridge, the elicitation bridge, the countdown and
// the approval prompt for project servers waiting for the person.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{waitSnapshot(m.env.eng.Updates()), m.maybeTick(), m.askApprovals()}
	if m.bridge != nil {
		cmds = append(cmds, m.bridge.wait())
	}
	return tea.Batch(cmds...)
}

// Update handles one message. It never blocks and never does I/O.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return m, m.broadcast(msg)
	case snapshotMsg:
		m.applySnapshot(msg.snap)
		return m, tea.Batch(waitSnapshot(m.env.eng.Updates()), m.maybeTick(), m.askApprovals())
	case updatesClosedMsg:
		return m, nil
	case tickMsg:
		m.ticking = false
		return m, m.maybeTick()
	case actionMsg:
		m.status, m.statusErr = actionStatus(msg)
		return m, nil
	case elicitMsg:
		nm, cmd := newElicitModal(m.env, msg.e)
		if nm != nil {
			m.modals = append(m.modals, nm)
		}
		return m, tea.Batch(cmd, m.bridge.wait(), watchGone(msg.e))
	case elicitGoneMsg:
		m.dropElicit(msg.e)
		return m, nil
	case tea.KeyMsg:
		return m, m.onKey(msg)
	case callDoneMsg, progressMsg, openedMsg, spinner.TickMsg:
		return m, m.broadcast(msg)
	}
	return m, m.updateTop(msg)
}

func (m *Model) resize(w, h int) {
	m.width, m.height = max(w, 20), max(h, 5)
	m.env.width, m.env.height = m.width, m.height
	m.list.SetSize(m.width, m.bodyHeight())
	if m.detail != nil {
		m.detail.SetSize(m.width, m.bodyHeight())
	}
}

// bodyHeight is the screen minus header, status line and footer.
func (m *Model) bodyHeight() int { return max(m.height-3, 1) }

func (m *Model) applySnapshot(s engine.Snapshot) {
	m.snap = s
	m.counts = [model.StateDisabled + 1]int{}
	m.awaiting, m.retrying = 0, false
	for i := range s.Servers {
		sv := &s.Servers[i]
		if sv.State >= 0 && int(sv.State) < len(m.counts) {
			m.counts[sv.State]++
		}
		if needsApproval(*sv) {
			m.awaiting++
		}
		if sv.State == model.StatePending && !sv.NextRetry.IsZero() {
			m.retrying = true
		}
	}
	m.list.SetServers(s.Servers)
	m.syncAuth()
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

// maybeTick starts the 1 s countdown tick if a retry is scheduled.
func (m *Model) maybeTick() tea.Cmd {
	if m.ticking || !m.retrying {
		return nil
	}
	m.ticking = true
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// askApprovals opens (or extends) the approval prompt for project servers
// not yet asked about in this session at their current definition.
func (m *Model) askApprovals() tea.Cmd {
	for _, md := range m.modals {
		if am, ok := md.(*approvalModal); ok {
			am.prune(m.find)
		}
	}
	var ask []engine.ServerSnapshot
	for _, s := range m.snap.Servers {
		if needsApproval(s) && m.asked[s.Name] != s.Hash+s.Approval.Status.String() {
			m.asked[s.Name] = s.Hash + s.Approval.Status.String()
			ask = append(ask, s)
		}
	}
	if len(ask) == 0 {
		return nil
	}
	for _, md := range m.modals {
		if am, ok := md.(*approvalModal); ok {
			am.servers = append(am.servers, ask...)
			return nil
		}
	}
	m.modals = append([]modal{&approvalModal{env: m.env, servers: ask}}, m.modals...)
	return nil
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
	_, cmd := m.list.Update(msg)
	return cmd
}

func (m *Model) setTop(nm modal) {
	n := len(m.modals)
	if nm == nil {
		m.modals = m.modals[:n-1]
	} else {
		m.modals[n-1] = nm
	}
}

// dropElicit removes the prompt of a request the server gave up on.
func (m *Model) dropElicit(e *elicitation) {
	kept := m.modals[:0]
	for _, md := range m.modals {
		if elicitOf(md) == e {
			continue
		}
		kept = append(kept, md)
	}
	m.modals = kept
	m.status, m.statusErr = e.req.Server+" withdrew its request", false
}

func elicitOf(md modal) *elicitation {
	switch v := md.(type) {
	case *urlModal:
		return v.el
	case *formModal:
		return v.elicit
	case *pickerModal, *runningModal, *resultModal, *approvalModal, *helpModal, *authModal:
	}
	return nil
}

// selected is the server the actions apply to.
func (m *Model) selected() *engine.ServerSnapshot {
	if m.detail != nil {
		return &m.detail.srv
	}
	return m.list.Selected()
}

func (m *Model) quit() tea.Cmd {
	for _, md := range m.modals {
		if e := elicitOf(md); e != nil {
			e.answer(engine.ElicitResponse{Action: "cancel"})
		}
	}
	m.cancel()
	return tea.Quit
}

func (m *Model) push(nm modal, cmd tea.Cmd) tea.Cmd {
	if nm != nil {
		m.modals = append(m.modals, nm)
	}
	return cmd
}

func (m *Model) onKey(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	if msg.Type == tea.KeyCtrlC {
		return m.quit()
	}
	if n := len(m.modals); n > 0 {
		switch m.modals[n-1].(type) {
		case *helpModal, *resultModal, *pickerModal: // no text input: q still quits
			if key.Matches(msg, k.Quit) {
				return m.quit()
			}
		}
		nm, cmd := m.modals[n-1].Update(msg)
		m.setTop(nm)
		return cmd
	}
	if m.detail == nil && m.list.filtering {
		_, cmd := m.list.Update(msg)
		return cmd
	}
	m.status, m.statusErr = "", false
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Help):
		m.modals = append(m.modals, &helpModal{env: m.env})
		return nil
	case key.Matches(msg, k.Reload):
		eng, ctx := m.env.eng, m.env.ctx
		m.status = "reloading the configuration…"
		return func() tea.Msg { return actionMsg{verb: "reload", server: "config", err: eng.Reload(ctx)} }
	case m.detail != nil && key.Matches(msg, k.Back):
		m.detail = nil
		return nil
	case m.detail == nil && key.Matches(msg, k.Open):
		if s := m.list.Selected(); s != nil {
			m.detail = newDetailView(&m.st, &m.keys, m.now, *s)
			m.detail.SetSize(m.width, m.bodyHeight())
		}
		return nil
	case m.detail != nil && key.Matches(msg, k.Open):
		return m.openFromDetail()
	}
	if a, ok := m.actionFor(msg); ok {
		return m.do(a)
	}
	_, cmd := m.current().Update(msg)
	return cmd
}

// current is the component under the modals: the detail view or the list.
func (m *Model) current() component {
	if m.detail != nil {
		return m.detail
	}
	return &m.list
}

// openFromDetail: enter on a tools/resources/prompts tab acts on the item.
func (m *Model) openFromDetail() tea.Cmd {
	switch m.detail.tab {
	case tabTools:
		return m.do(actCallTool)
	case tabResources:
		return m.do(actReadResource)
	case tabPrompts:
		return m.do(actGetPrompt)
	case tabOverview, tabStderr, tabInstructions, numTabs:
	}
	return nil
}

func (m *Model) actionFor(msg tea.KeyMsg) (action, bool) {
	k := &m.keys
	pairs := []struct {
		b key.Binding
		a action
	}{
		{k.Enable, actEnable},
		{k.Disable, actDisable},
		{k.Reconnect, actReconnect},
		{k.CancelRetry, actCancelRetry},
		{k.Authenticate, actAuthenticate},
		{k.Approve, actApprove},
		{k.Reject, actReject},
		{k.CallTool, actCallTool},
		{k.ReadResource, actReadResource},
		{k.GetPrompt, actGetPrompt},
	}
	for _, p := range pairs {
		if key.Matches(msg, p.b) {
			return p.a, true
		}
	}
	return 0, false
}

// do runs an action on the selected server, or says why it cannot.
func (m *Model) do(a action) tea.Cmd {
	s := m.selected()
	if s == nil {
		m.status, m.statusErr = a.String()+": no server selected", true
		return nil
	}
	if ok, why := available(a, *s); !ok {
		m.status, m.statusErr = why, true
		return nil
	}
	switch a {
	case actCallTool:
		if m.detail != nil && m.detail.tab == tabTools {
			return m.push(openToolCall(m.env, s.Name, s.Tools[m.detail.Selection(tabTools)]))
		}
		return m.push(openToolPicker(m.env, s))
	case actReadResource:
		if m.detail != nil && m.detail.tab == tabResources {
			return m.push(openResource(m.env, s, m.detail.Selection(tabResources)))
		}
		return m.push(openResourcePicker(m.env, s))
	case actGetPrompt:
		if m.detail != nil && m.detail.tab == tabPrompts {
			return m.push(openPrompt(m.env, s.Name, s.Prompts[m.detail.Selection(tabPrompts)]))
		}
		return m.push(openPromptPicker(m.env, s))
	case actEnable, actDisable, actReconnect, actCancelRetry, actAuthenticate, actApprove, actReject:
	}
	verb := a.String()
	if a == actReconnect && s.State == model.StatePending && !s.NextRetry.IsZero() {
		verb = "retry now"
	}
	m.status = verb + " " + s.Name + "…"
	return engineAction(m.env.ctx, m.env.eng, a, s.Name)
}

// View draws header, body (modal, detail or list), status line and footer,
// cut to the terminal so that nothing wraps.
func (m *Model) View() string {
	bh := m.bodyHeight()
	var body string
	switch {
	case len(m.modals) > 0:
		body = m.modals[len(m.modals)-1].View(m.width, bh)
	default:
		body = m.current().View()
	}
	var b strings.Builder
	b.WriteString(m.header())
	b.WriteByte('\n')
	b.WriteString(fitLines(body, m.width, bh))
	b.WriteByte('\n')
	b.WriteString(m.statusLine())
	b.WriteByte('\n')
	h := newHelp(&m.st)
	h.Width = m.width
	b.WriteString(h.ShortHelpView(m.footerKeys()))
	return fitLines(b.String(), m.width, m.height)
}

func (m *Model) header() string {
	st := &m.st
	c := m.counts
	part := func(glyph string, style func(...string) string, n int, label string) string {
		if n == 0 {
			return ""
		}
		if m.width < 100 {
			return "  " + style(glyph) + " " + fmt.Sprint(n)
		}
		return "  " + style(glyph) + fmt.Sprintf(" %d %s", n, label)
	}
	s := st.Title.Render(m.title) +
		part("●", st.Good.Render, c[model.StateConnected], "connected") +
		part("◌", st.Warn.Render, c[model.StatePending], "pending") +
		part("✗", st.Bad.Render, c[model.StateFailed], "failed") +
		part("◆", st.Auth.Render, c[model.StateNeedsAuth], "needs auth") +
		part("○", st.Off.Render, c[model.StateDisabled], "disabled") +
		part("?", st.Warn.Render, m.awaiting, "awaiting approval")
	return s
}

func (m *Model) statusLine() string {
	switch {
	case m.status != "" && m.statusErr:
		return m.st.Bad.Render(m.status)
	case m.status != "":
		return m.st.Muted.Render(m.status)
	case len(m.snap.Problems) > 0:
		return m.st.Bad.Render(fmt.Sprintf("⚠ %d config problem(s): %s", len(m.snap.Problems), m.snap.Problems[0].Error()))
	case len(m.snap.Warnings) > 0:
		return m.st.Warn.Render("⚠ " + m.snap.Warnings[0])
	}
	return ""
}

// footerKeys are the keys valid for what is on screen.
func (m *Model) footerKeys() []key.Binding {
	k := &m.keys
	if n := len(m.modals); n > 0 {
		return m.modals[n-1].Help()
	}
	if m.detail == nil && m.list.filtering {
		return []key.Binding{
			key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		}
	}
	var out []key.Binding
	if m.detail != nil {
		out = append(out, k.Back, k.NextTab)
	} else {
		out = append(out, k.Open)
	}
	if s := m.selected(); s != nil {
		for _, a := range []struct {
			b key.Binding
			a action
		}{
			{k.Approve, actApprove},
			{k.Reject, actReject},
			{k.Enable, actEnable},
			{k.Disable, actDisable},
			{k.Reconnect, actReconnect},
			{k.CancelRetry, actCancelRetry},
			{k.Authenticate, actAuthenticate},
			{k.CallTool, actCallTool},
			{k.ReadResource, actReadResource},
			{k.GetPrompt, actGetPrompt},
		} {
			if ok, _ := available(a.a, *s); !ok {
				continue
			}
			if a.a == actAuthenticate && s.State != model.StateNeedsAuth {
				continue // offered everywhere would be noise; the key still works
			}
			if (a.a == actApprove || a.a == actReject) && !needsApproval(*s) {
				continue
			}
			b := a.b
			if a.a == actReconnect && s.State == model.StatePending && !s.NextRetry.IsZero() {
				b.SetHelp("r", "retry now")
			}
			out = append(out, b)
		}
	}
	if m.detail == nil {
		out = append(out, k.Filter)
	}
	return append(out, k.Help, k.Quit)
}
