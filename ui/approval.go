package ui

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/sandbox"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/status"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// approvalModal asks about project servers that are new or changed since
// approval, one at a time, showing every field of the definition as written
// (config.ApprovalView) and the diff, scrolling when they do not fit.
type approvalModal struct {
	env     *env
	servers []engine.ServerSnapshot
	i       int
	// offset is the first line of the server's details on screen, when
	// they are taller than the prompt.
	offset int
	// one is set when the person asked to approve this one server from the
	// list: A (pressed again) or a approves it, never all of them.
	one bool
}

// approvalPrompt is what the approval prompt answers: there is one, and
// servers that newly wait for approval join it.
type approvalPrompt struct{}

// approvalsMsg tells the approval prompt about a new snapshot: it drops
// the servers decided elsewhere (find looks them up) and asks about more.
type approvalsMsg struct {
	find func(string) *engine.ServerSnapshot
	more []engine.ServerSnapshot
}

func (m *approvalModal) TakesText() bool { return false }

func (m *approvalModal) Answers() any { return approvalPrompt{} }

// Help lists q: quitting leaves the servers awaiting approval, asked
// again at the next start, so the prompt need not hold the person.
func (m *approvalModal) Help() []key.Binding {
	k := m.env.Keys
	q := k.Quit.Help()
	quit := key.NewBinding(key.WithKeys(k.Quit.Keys()...), key.WithHelp(q.Key, q.Desc+", decide later"))
	if m.one {
		return []key.Binding{k.ApproveOne, k.RejectOne, k.Later, quit}
	}
	return []key.Binding{k.ApproveOne, k.ApproveAll, k.RejectOne, k.Later, quit}
}

// prune drops the servers still to be asked about that no longer wait for
// approval (decided elsewhere, e.g. with the CLI, or removed), and refreshes
// the others; the one on screen stays so the person's key press is not lost.
func (m *approvalModal) prune(find func(string) *engine.ServerSnapshot) {
	kept := m.servers[:m.i+1]
	for _, s := range m.servers[m.i+1:] {
		if cur := find(s.Name); cur != nil && status.AwaitsApproval(cur) {
			kept = append(kept, *cur)
		}
	}
	m.servers = kept
}

func (m *approvalModal) next() (tuikit.Modal, tea.Cmd) {
	m.i++
	m.offset = 0
	if m.i >= len(m.servers) {
		return nil, nil
	}
	return m, nil
}

// shown maps the prompt's servers i..j-1 to the definition hashes they
// were listed with, so the engine approves exactly those definitions.
func (m *approvalModal) shown(i, j int) map[string]string {
	out := make(map[string]string, j-i)
	for _, s := range m.servers[i:j] {
		out[s.Name] = s.Hash
	}
	return out
}

// approve asks the engine to approve the shown definitions.
func (m *approvalModal) approve(shown map[string]string) tea.Cmd {
	ctx, eng := m.env.Ctx, m.env.eng
	names := strings.Join(slices.Sorted(maps.Keys(shown)), ", ")
	return func() tea.Msg {
		return actionMsg{verb: "approve", server: names, err: eng.ApproveShown(ctx, shown)}
	}
}

func (m *approvalModal) Update(msg tea.Msg) (tuikit.Modal, tea.Cmd) {
	if a, ok := msg.(approvalsMsg); ok {
		m.prune(a.find)
		m.servers = append(m.servers, a.more...)
		return m, nil
	}
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	k := m.env.Keys
	cur := m.servers[m.i].Name
	switch {
	case key.Matches(km, k.ApproveOne):
		shown := m.shown(m.i, m.i+1)
		nm, _ := m.next()
		return nm, m.approve(shown)
	case key.Matches(km, k.ApproveAll) && m.one:
		return nil, m.approve(m.shown(m.i, m.i+1))
	case key.Matches(km, k.ApproveAll):
		return nil, m.approve(m.shown(m.i, len(m.servers)))
	case key.Matches(km, k.RejectOne):
		nm, _ := m.next()
		eng := m.env.eng
		return nm, func() tea.Msg { return actionMsg{verb: "reject", server: cur, err: eng.Reject(m.env.Ctx, cur)} }
	case key.Matches(km, k.Later):
		return nil, nil
	}
	_, h := m.env.BodySize()
	if delta, ok := k.ScrollBy(km, max(h-8, 1)); ok {
		m.offset = max(0, m.offset+delta) // View clamps the end
	}
	return m, nil
}

func (m *approvalModal) View(width, height int) string {
	st := m.env.St
	s := &m.servers[m.i]
	inner := max(width-4, 10)
	title := "New project server"
	if s.Approval.Status == model.ApprovalChanged {
		title = "Project server changed since you approved it"
	}
	if len(m.servers) > 1 {
		title += st.Muted.Render(" (" + itoa(m.i+1) + " of " + itoa(len(m.servers)) + ")")
	}
	verb := "It will run:"
	if s.Transport.Info().Remote {
		verb = "It will connect to:"
	}
	head := []string{st.Heading.Render(title), "", st.Title.Render(textsafe.Escape(s.Name)) + st.Muted.Render(" · "+string(s.Transport)), ""}
	body := m.warnings(s, inner)
	if len(body) == 0 {
		head = append(head, verb)
	} else { // what stops it comes first, then what it will run
		body = append(body, "", verb)
	}
	var keys []string // from the key map: a remapped key shows as remapped
	for _, b := range m.Help() {
		keys = append(keys, st.Key.Render(b.Help().Key)+" "+b.Help().Desc)
	}
	foot := []string{"", "Only approve servers from repositories you trust.", strings.Join(keys, "  ")}
	head, foot = tuikit.WrapAll(head, inner), tuikit.WrapAll(foot, inner)
	body = tuikit.WrapAll(append(body, m.body(s, inner)...), inner)
	if len(head)+len(body)+len(foot) > height-2 { // short of room: the details matter more than spacing
		head, foot = dropBlank(head), dropBlank(foot)
	}
	room := max(height-2-len(head)-len(foot), 3)
	if len(body) > room {
		room-- // the scroll line
		m.offset = max(0, min(m.offset, len(body)-room))
		end := m.offset + room
		more := st.Muted.Render("↑/↓ scroll · lines " + itoa(m.offset+1) + "–" + itoa(end) + " of " + itoa(len(body)))
		body = append(body[m.offset:end:end], more)
	}
	return tuikit.Panel(st, append(append(head, body...), foot...), width, height)
}

// body is what the server will run or send, every field as written, and
// what its sandbox would open on this machine, in lines of at most width
// columns (values wrap under their value column),
// and for a changed definition what changed since it was approved.
func (m *approvalModal) body(s *engine.ServerSnapshot, width int) []string {
	st := m.env.St
	written := s.Config // redacted; only when the engine did not give the definition as written
	if s.Written != nil {
		written = *s.Written
	}
	view := config.ApprovalView(written, s.RunsIn, s.Source)
	view = append(view, sandboxLines(s.Sandbox)...)
	col := 0
	for _, l := range view {
		col = max(col, len(l.Label)+2)
	}
	if width-col < 20 { // too narrow for a column of labels: each label above its value
		col = 2
	}
	var lines []string
	for _, l := range view {
		label := l.Label
		if label != "" {
			label += ":"
		}
		if col == 2 && label != "" {
			lines = append(lines, st.Muted.Render(label))
			label = ""
		}
		for _, part := range strings.Split(tuikit.Wrap(l.Value, width-col), "\n") {
			lines = append(lines, st.Muted.Render(fmt.Sprintf("%-*s", col, label))+st.Code.Render(part))
			label = ""
		}
	}
	if s.Approval.Status == model.ApprovalChanged && s.Approval.Diff != "" {
		diff := strings.Split(strings.TrimRight(s.Approval.Diff, "\n"), "\n")
		for i, d := range diff {
			diff[i] = textsafe.Escape(d)
		}
		lines = append(lines, "", "What changed:")
		lines = append(lines, tuikit.DiffLines(st, strings.Join(diff, "\n"))...)
	}
	return lines
}

// warnings say what would still stop s once approved
// (status.BesidesApproval: a command the launcher's resolver does not find,
// a ${VAR} it sends that is not set, policy), in lines of at most width
// columns: the prompt shows them before the definition, so they are on
// screen before any scrolling.
func (m *approvalModal) warnings(s *engine.ServerSnapshot, width int) []string {
	var out []string
	for _, w := range status.BesidesApproval(s) {
		for _, part := range strings.Split(tuikit.Wrap("⚠ "+textsafe.SanitizeLine(w.Text), width), "\n") {
			out = append(out, m.env.St.Warn.Render(part))
		}
	}
	return out
}

// dropBlank returns lines without the empty ones.
func dropBlank(lines []string) []string {
	out := lines[:0:0]
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }

// askApprovals opens (or extends) the approval prompt for project servers
// not yet asked about in this session at their current definition.
func (m *Model) askApprovals() tea.Cmd {
	var ask []engine.ServerSnapshot
	for _, s := range m.snap.Servers {
		if status.AwaitsApproval(&s) && m.asked[s.Name] != s.Hash+s.Approval.Status.String() {
			m.asked[s.Name] = s.Hash + s.Approval.Status.String()
			ask = append(ask, s)
		}
	}
	if _, open := m.tell(approvalPrompt{}, approvalsMsg{find: m.find, more: ask}); open || len(ask) == 0 {
		if top := m.top(); open && len(ask) > 0 && top != nil && top.Answers() == (approvalPrompt{}) {
			m.guard.Rearm() // it asks about more servers now: a key typed before they showed is not for them
		}
		return nil
	}
	m.modals = append([]tuikit.Modal{&approvalModal{env: m.env, servers: ask}}, m.modals...)
	return nil
}

// openApproval is A on a server: the prompt for that one server, which
// shows its definition before anything is approved.
func openApproval(m *Model, p press) tea.Cmd {
	return m.push(&approvalModal{env: m.env, servers: []engine.ServerSnapshot{*p.s}, one: true}, nil)
}

// sandboxLines are what the sandbox of a server awaiting approval would
// open on this machine (the engine works it out: engine.ServerSnapshot.Sandbox),
// under a heading, each value escaped as the definition's are.
func sandboxLines(v *sandbox.View) []config.ApprovalLine {
	if v == nil {
		return nil
	}
	return append([]config.ApprovalLine{{Label: "Its sandbox here", Value: "what it would open on this machine now, links resolved"}}, config.SandboxLines(v, "")...)
}
