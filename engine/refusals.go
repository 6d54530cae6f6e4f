package engine

import "slices"

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
// allow; ok is false when there is none.
func (s *ServerSnapshot) LastRefusal() (r Refusal, ok bool) {
	for i := len(s.Refusals) - 1; i >= 0; i-- {
		if s.Refusals[i].Allow != "" {
			return s.Refusals[i], true
		}
	}
	return Refusal{}, false
}
