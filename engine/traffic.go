package engine

import (
	"slices"
	"time"

	"github.com/mcpdeck/mcpdeck/transports"
)

// Frame is one JSON-RPC message between mcpdeck and a server, recorded by
// the transport (secrets masked, body at most 64 KB).
type Frame = transports.Frame

// Refusal is a connection a sandboxed server's proxy refused
// (transports.Refusal), as the proxy reported it.
type Refusal = transports.Refusal

// The directions and kinds of a Frame.
const (
	FrameSent         = transports.Sent
	FrameReceived     = transports.Received
	FrameRequest      = transports.KindRequest
	FrameResponse     = transports.KindResponse
	FrameNotification = transports.KindNotification
	FrameError        = transports.KindError
)

// Bounds on the traffic kept per server: the last maxTrafficFrames frames,
// and of those only as many as keep their bodies under maxTrafficBytes
// (500 bodies of 64 KB would be 32 MB a server), the oldest going first.
// New frames reach a snapshot at most every trafficPublish.
const (
	maxTrafficFrames = 500
	maxTrafficBytes  = 4 << 20
	trafficPublish   = 200 * time.Millisecond
)

// trafficRing is a server's recent frames, oldest first. It outlives the
// server's connections: a reconnect keeps what came before it.
type trafficRing struct {
	frames  []Frame
	bytes   int // body bytes held
	dropped int // frames evicted since mcpdeck started
}

// add keeps f, evicting the oldest frames past either bound.
func (r *trafficRing) add(f Frame) {
	r.frames = append(r.frames, f)
	r.bytes += len(f.Body)
	n := 0
	for len(r.frames)-n > maxTrafficFrames || (r.bytes > maxTrafficBytes && len(r.frames)-n > 1) {
		r.bytes -= len(r.frames[n].Body)
		n++
	}
	if n > 0 {
		clear(r.frames[:n]) // let the evicted bodies go
		r.frames = r.frames[n:]
		r.dropped += n
	}
}

// trafficState is a server's traffic: its ring, the pending copy into the
// snapshot, and the copy the snapshot shows.
type trafficState struct {
	ring         trafficRing
	timer        *time.Timer
	shown        []Frame
	shownDropped int
}

// onFrame records a frame of server's traffic: at once to Options.OnFrame
// (the CLI's --trace), and into the server's snapshot at most every
// trafficPublish.
func (p *logParts) onFrame(server string, f Frame) {
	if cb := p.e.opts.OnFrame; cb != nil {
		cb(server, f)
	}
	p.e.ifEntry(server, func(en *entry) {
		t := &en.logs.traffic
		t.ring.add(f)
		if t.timer == nil {
			t.timer = time.AfterFunc(trafficPublish, func() { p.flushTraffic(server) })
		}
	})
}

// flushTraffic copies the server's ring into its snapshot and publishes.
// The copy is the snapshot's own: the ring changes in place.
func (p *logParts) flushTraffic(server string) {
	p.e.ifEntry(server, func(en *entry) {
		t := &en.logs.traffic
		t.timer = nil
		t.shown = slices.Clone(t.ring.frames)
		t.shownDropped = t.ring.dropped
		p.e.publishLocked()
	})
}

// Traffic returns a copy of server's recent frames as they are now (a
// snapshot's may be up to trafficPublish older) and how many older ones
// were let go; nothing for an unknown server.
func (e *Engine) Traffic(server string) (frames []Frame, dropped int) {
	e.locked(func() {
		if en := e.byName[server]; en != nil {
			frames, dropped = slices.Clone(en.logs.traffic.ring.frames), en.logs.traffic.ring.dropped
		}
	})
	return frames, dropped
}

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
