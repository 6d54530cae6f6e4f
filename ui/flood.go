package ui

import "github.com/mcpdeck/mcpdeck/ui/status"

// tellFloods puts a server's new burst of declined requests (the engine
// lets only engine.MaxPendingAsks of a server's prompts wait) on the status
// line, once per burst; while the line still shows it, its counts follow
// the snapshot.
func (m *Model) tellFloods() {
	for i := range m.snap.Servers {
		s := &m.snap.Servers[i]
		switch {
		case s.Flood.Seq == 0:
			continue
		case s.Flood.Seq != m.floods[s.Name]:
			m.floods[s.Name] = s.Flood.Seq
		case m.floodOn != s.Name || m.status != m.floodText:
			continue // told, and replaced since
		}
		m.floodOn, m.floodText = s.Name, status.Flood(s)
		m.status, m.statusErr = m.floodText, true
	}
}
