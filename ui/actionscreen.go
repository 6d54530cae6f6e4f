package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/ui/addserver"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// The action table's actions on the screen itself rather than on a server
// (actiontable.go): where they apply, when the footer offers them, and
// what they do.

func inDetail(m *Model, _ *engine.ServerSnapshot) bool { return m.detail != nil }

func never(*Model, *engine.ServerSnapshot) bool { return false }

func hasRegistry(m *Model, _ *engine.ServerSnapshot) bool { return m.env.reg != nil }

func onLogsTab(m *Model) bool { return m.detail != nil && m.detail.tab == tabLogs }

// canFilter: "/" filters the list, and the detail view's tabs that list
// things (isFilterTab).
func canFilter(m *Model) bool { return m.detail == nil || isFilterTab(m.detail.tab) }

// helpIsRoots reports whether the help key opens the help here: anywhere
// but in a modal that binds it itself (the help screen, which it closes).
func helpIsRoots(m *Model) bool {
	top := m.top()
	return top == nil || !tuikit.Binds(top.Help(), m.keys.Help)
}

// quitOffered reports whether q quits here: on the screens, and in a
// modal that offers it (a picker, a result, the help, the approval prompt,
// which leaves the servers awaiting approval); a prompt a server or a
// call waits on keeps it for the person's answer.
func quitOffered(m *Model) bool {
	top := m.top()
	return top == nil || tuikit.Binds(top.Help(), m.keys.Quit)
}

// quitTUI is q: it quits where quitOffered, else says why not, as every
// key that does not apply does.
func quitTUI(m *Model, p press) tea.Cmd {
	if !quitOffered(m) {
		m.status, m.statusErr = p.a.verb+": "+quitHeld, true
		return nil
	}
	return m.quit()
}

// quitHeld is why q does not quit from a prompt.
const quitHeld = "not from this prompt (close it first, or ctrl+c quits from anywhere)"

// forceQuit is ctrl+c: it quits from anywhere.
func forceQuit(m *Model, _ press) tea.Cmd { return m.quit() }

// quit gives every request waiting for the person its fallback answer,
// cancels every engine action, and ends the program.
func (m *Model) quit() tea.Cmd {
	for _, md := range m.modals {
		if r, ok := md.Answers().(interface{ Abandon() }); ok {
			r.Abandon()
		}
	}
	m.cancel()
	return tea.Quit
}

// openHelp opens the help; over a prompt it lists the prompt's keys first.
func openHelp(m *Model, _ press) tea.Cmd {
	h := &helpModal{env: m.env, keys: &m.keys, notices: m.notices()}
	if top := m.top(); top != nil {
		h.prompt = top.Help()
	}
	return m.push(h, nil)
}

func reload(m *Model, _ press) tea.Cmd {
	eng, ctx := m.env.eng, m.env.Ctx
	m.status = "reloading the configuration…"
	return func() tea.Msg { return actionMsg{verb: "reload", server: "config", err: eng.Reload(ctx)} }
}

// addServer is + : the search of the MCP Registry, or why there is none.
func addServer(m *Model, _ press) tea.Cmd {
	if m.env.reg == nil {
		m.status, m.statusErr = "add from the MCP Registry: not available here", true
		return nil
	}
	return m.push(addserver.Open(m.env.Env, m.env.reg, m.env.eng.Reload))
}

// openServer shows the selected server's detail view.
func openServer(m *Model, _ press) tea.Cmd {
	if s := m.list.Selected(); s != nil {
		m.detail = newDetailView(&m.st, &m.keys.Keys, m.now, *s)
		m.detail.costs = m.costs
		m.detail.SetSize(m.width, m.bodyHeight())
	}
	return nil
}

// goBack is esc: it clears a kept filter first; on the detail view it
// then goes back to the list.
func goBack(m *Model, _ press) tea.Cmd {
	switch {
	case m.detail == nil:
		m.list.clearFilter()
	case !m.detail.clearFilter():
		m.detail = nil
	}
	return nil
}

func nextTab(m *Model, _ press) tea.Cmd {
	m.detail.showTab((m.detail.tab + 1) % numTabs)
	return nil
}

func prevTab(m *Model, _ press) tea.Cmd {
	m.detail.showTab((m.detail.tab + numTabs - 1) % numTabs)
	return nil
}

// jumpTab is a digit: the tab of that number.
func jumpTab(m *Model, p press) tea.Cmd {
	if len(p.key.Runes) > 0 {
		m.detail.showTab(min(detailTab(p.key.Runes[0]-'1'), numTabs-1))
	}
	return nil
}

func startFilter(m *Model, _ press) tea.Cmd {
	if m.detail != nil {
		return m.detail.startFilter()
	}
	return m.list.filter.Start()
}

// openFromDetail: enter on a tools/resources/prompts tab acts on the
// item; on the traffic tab it shows the selected frame.
func openFromDetail(m *Model, p press) tea.Cmd {
	if p.item >= 0 {
		return m.push(frameModal(m.env, m.detail.srv.Traffic[p.item]), nil)
	}
	ids := map[detailTab]ActionID{tabTools: ActCallTool, tabResources: ActReadResource, tabPrompts: ActGetPrompt}
	if id, ok := ids[m.detail.tab]; ok {
		return m.do(m.actions[id], p.key)
	}
	return nil
}
