package engine

import (
	"slices"
	"time"

	"github.com/mcpdeck/mcpdeck/transports"
)

// Frame is one JSON-RPC message between mcpdeck and a server, recorded by
// the transport (secrets masked, body at most 64 KB).
type Frame = transports.Frame

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

// onFrame records a frame of server's traffic: at once to Options.OnFrame
// (the CLI's --trace), and into the server's snapshot at most every
// trafficPublish.
func (e *Engine) onFrame(server string, f Frame) {
	if cb := e.opts.OnFrame; cb != nil {
		cb(server, f)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[server]
	if e.closed || en == nil {
		return
	}
	en.traffic.add(f)
	if en.trafficTimer == nil {
		en.trafficTimer = time.AfterFunc(trafficPublish, func() { e.flushTraffic(server) })
	}
}

// flushTraffic copies the server's ring into its snapshot and publishes.
// The copy is the snapshot's own: the ring changes in place.
func (e *Engine) flushTraffic(server string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[server]
	if e.closed || en == nil {
		return
	}
	en.trafficTimer = nil
	en.s.Traffic = slices.Clone(en.traffic.frames)
	en.s.TrafficDropped = en.traffic.dropped
	e.publishLocked()
}

// Traffic returns a copy of server's recent frames as they are now (a
// snapshot's may be up to trafficPublish older) and how many older ones
// were let go; nothing for an unknown server.
func (e *Engine) Traffic(server string) ([]Frame, int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[server]
	if en == nil {
		return nil, 0
	}
	return slices.Clone(en.traffic.frames), en.traffic.dropped
}
