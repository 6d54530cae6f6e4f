package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// approvalModal asks about project servers that are new or changed since
// approval, one at a time, showing the full command or URL and the diff.
type approvalModal struct {
	env     *env
	servers []engine.ServerSnapshot
	i       int
}

func (m *approvalModal) Help() []key.Binding {
	k := m.env.keys
	return []key.Binding{k.ApproveOne, k.ApproveAll, k.RejectOne, k.Later}
}

// prune drops the servers still to be asked about that no longer wait for
// approval (decided elsewhere, e.g. with the CLI, or removed), and refreshes
// the others; the one on screen stays so the person's key press is not lost.
func (m *approvalModal) prune(find func(string) *engine.ServerSnapshot) {
	kept := m.servers[:m.i+1]
	for _, s := range m.servers[m.i+1:] {
		if cur := find(s.Name); cur != nil && needsApproval(*cur) {
			kept = append(kept, *cur)
		}
	}
	m.servers = kept
}

func (m *approvalModal) next() (modal, tea.Cmd) {
	m.i++
	if m.i >= len(m.servers) {
		return nil, nil
	}
	return m, nil
}

func (m *approvalModal) Update(msg tea.Msg) (modal, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	k := m.env.keys
	cur := m.servers[m.i].Name
	switch {
	case key.Matches(km, k.ApproveOne):
		nm, _ := m.next()
		return nm, engineAction(m.env.ctx, m.env.eng, actApprove, cur)
	case key.Matches(km, k.ApproveAll):
		return nil, engineAction(m.env.ctx, m.env.eng, actApprove, "all")
	case key.Matches(km, k.RejectOne):
		nm, _ := m.next()
		return nm, engineAction(m.env.ctx, m.env.eng, actReject, cur)
	case key.Matches(km, k.Later):
		return nil, nil
	}
	return m, nil
}

func (m *approvalModal) View(width, height int) string {
	st := m.env.st
	s := &m.servers[m.i]
	var lines []string
	title := "New project server"
	if s.Approval.Status == model.ApprovalChanged {
		title = "Project server changed since you approved it"
	}
	if len(m.servers) > 1 {
		title += st.Muted.Render(" (" + itoa(m.i+1) + " of " + itoa(len(m.servers)) + ")")
	}
	lines = append(lines, st.Heading.Render(title), "")
	lines = append(lines, st.Title.Render(s.Name)+st.Muted.Render(" · "+string(s.Transport)+" · from "+s.Source))
	verb := "It will run:"
	switch s.Transport {
	case model.TransportHTTP, model.TransportSSE, model.TransportWS:
		verb = "It will connect to:"
	case model.TransportStdio, model.TransportSDK:
	}
	lines = append(lines, "", verb)
	lines = append(lines, strings.Split(wordwrap(st.Code.Render(s.Target), max(width-4, 10)), "\n")...)
	if s.Approval.Status == model.ApprovalChanged && s.Approval.Diff != "" {
		lines = append(lines, "", "What changed:")
		lines = append(lines, diffLines(st, s.Approval.Diff)...)
	}
	lines = append(lines, "", "Only approve servers from repositories you trust.")
	lines = append(lines, st.Key.Render("a")+" approve  "+st.Key.Render("A")+" approve all  "+st.Key.Render("x")+" reject  "+st.Key.Render("esc")+" decide later")
	return panel(st, lines, width, height)
}

func itoa(i int) string { return strconv.Itoa(i) }

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
