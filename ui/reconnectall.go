package ui

import (
	"fmt"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// downServers are the servers reconnect all acts on: those that may run
// and are not connected (failed, given up, needing sign-in, waiting to
// retry). A connected server is left alone: reconnecting it would only
// drop its calls.
func downServers(snap engine.Snapshot) []string {
	var out []string
	for i := range snap.Servers {
		s := &snap.Servers[i]
		if s.Runnable && s.State != model.StateConnected {
			out = append(out, s.Name)
		}
	}
	return out
}

// reconnectAll reconnects every server that may run and is not
// connected, at once, and reports them together when all have ended.
func reconnectAll(m *Model, _ press) tea.Cmd {
	names := downServers(m.snap)
	if len(names) == 0 {
		m.status, m.statusErr = "reconnect all: every server that may run is connected", false
		return nil
	}
	m.status, m.statusErr = fmt.Sprintf("reconnecting %s…", status.Plural(len(names), "server")), false
	eng, ctx := m.env.eng, m.env.Ctx
	return func() tea.Msg {
		out := make([]reconnectedMsg, len(names))
		var wg sync.WaitGroup
		for i, n := range names {
			wg.Go(func() {
				s, err := eng.ReconnectOutcome(ctx, n)
				out[i] = reconnectedMsg{server: n, s: s, err: err}
			})
		}
		wg.Wait()
		return reconnectedAllMsg(out)
	}
}

// reconnectedAllMsg is the outcome of reconnect all, one per server.
type reconnectedAllMsg []reconnectedMsg

// Report counts the servers that connected and words the others.
func (m reconnectedAllMsg) Report() (string, bool) {
	up := 0
	var down []string
	for _, r := range m {
		if r.err == nil && r.s.State == model.StateConnected {
			up++
			continue
		}
		line, _ := r.Report()
		down = append(down, line)
	}
	switch {
	case len(down) == 0:
		return fmt.Sprintf("reconnect all: %s connected", status.Plural(up, "server")), false
	case up == 0:
		return "reconnect all: " + strings.Join(down, "; "), true
	}
	return fmt.Sprintf("reconnect all: %d connected; ", up) + strings.Join(down, "; "), true
}
