package engine

import (
	"slices"
	"time"
)

// maxRefusals bounds the refusals a server's snapshot keeps: a server
// that dials in a loop costs no more than this.
const maxRefusals = 20

// onRefuse keeps a refusal the server's sandbox proxy reported, the
// oldest dropped past maxRefusals, and publishes it at once: refusals are
// few (each is a connection the server tried) and the H key acts on them.
func (p *logParts) onRefuse(server string, r Refusal) {
	p.e.ifEntry(server, func(en *entry) {
		en.logs.refusals = keepRefusal(en.logs.refusals, r)
		p.e.publishLocked()
	})
}

// keepRefusal returns a new list: kept with r appended, at most
// maxRefusals, oldest dropped. kept is not changed, so a snapshot holding
// it keeps what it had.
func keepRefusal(kept []Refusal, r Refusal) []Refusal {
	if len(kept) >= maxRefusals {
		kept = kept[len(kept)-maxRefusals+1:]
	}
	return append(slices.Clip(slices.Clone(kept)), r)
}

// LastRefusal is the newest refusal whose host a network list entry can
// allow and the server's sandbox does not allow yet; ok is false when
// there is none. A host allowed since (H) is not refused any more: its
// refusal is history, not something to act on again.
func (s *ServerSnapshot) LastRefusal() (r Refusal, ok bool) {
	for i := len(s.Refusals) - 1; i >= 0; i-- {
		if a := s.Refusals[i].Allow; a != "" && !s.allowsHost(a) {
			return s.Refusals[i], true
		}
	}
	return Refusal{}, false
}

// RefusedSince is the refusals reported after t, oldest first: the
// connections a call that started at t was refused.
func (s *ServerSnapshot) RefusedSince(t time.Time) []Refusal {
	var out []Refusal
	for _, r := range s.Refusals {
		if r.At.After(t) {
			out = append(out, r)
		}
	}
	return out
}

// allowsHost reports whether the server's sandbox network list holds the
// entry host (or allows every host).
func (s *ServerSnapshot) allowsHost(host string) bool {
	box := s.Config.Sandbox
	return box != nil && (box.Network.All || slices.Contains(box.Network.Hosts, host))
}
