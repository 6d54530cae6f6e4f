package engine

import (
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// MaxPendingAsks is how many of one server's requests to the person may
// wait for an answer at once: its elicitations (form and URL), its
// sampling requests, and the input-required rounds of its 2026-07-28
// requests (a round counts once: engine/inputround bounds its inputs).
// Each one waiting holds a prompt in the TUI, a question in serve's relay,
// a goroutine everywhere; a server sending ten thousand at once took the
// TUI past 1 GB. The rest are declined at once (tooManyAsks), and the
// server's snapshot records the burst (AskFlood) for the UIs to tell.
const MaxPendingAsks = 4

// askRefusedCode is the JSON-RPC error code a declined request gets: one of
// the codes JSON-RPC leaves to the implementation (-32000 to -32099). The
// request was well formed (not -32600) and nothing failed (not -32603):
// mcpdeck's own limit turned it away.
const askRefusedCode = -32000

// Bursts of declined requests: one that comes askBurstGap or more after
// the last decline starts a new burst, which the person is told about
// again; while a burst lasts, its counts reach the snapshot at most every
// askPublish.
const (
	askBurstGap = 10 * time.Second
	askPublish  = 200 * time.Millisecond
)

// ErrTooManyAsks is why a server's request was declined unanswered: the
// server already had MaxPendingAsks requests waiting for an answer.
var ErrTooManyAsks = errors.New("too many pending requests from this server")

// tooManyAsks is ErrTooManyAsks as the server gets it: a JSON-RPC error of
// code askRefusedCode whose message says why (transports send an error with
// a JSONRPCError method as that error).
type tooManyAsks struct{}

func (tooManyAsks) Error() string {
	return fmt.Sprintf("mcpdeck: %v (limit %d); declined", ErrTooManyAsks, MaxPendingAsks)
}

// Is makes errors.Is(err, ErrTooManyAsks) hold.
func (tooManyAsks) Is(target error) bool { return target == ErrTooManyAsks }

// JSONRPCError is the error the server is answered with.
func (t tooManyAsks) JSONRPCError() mcp.JSONRPCError {
	return mcp.JSONRPCError{JSONRPC: mcp.JSONRPC_VERSION, Error: mcp.JSONRPCErrorDetails{Code: askRefusedCode, Message: t.Error()}}
}

// AskFlood is a server's latest burst of requests declined because
// MaxPendingAsks were already waiting. The UIs tell the person once per
// burst (a new Seq), in words of their own; the counts keep growing while
// the burst lasts.
type AskFlood struct {
	// Seq numbers the server's bursts from 1; 0 means none happened.
	Seq int       `json:"seq"`
	At  time.Time `json:"at"` // the burst's first decline
	// Sent counts the requests of the burst: those waiting when it began
	// and every one that came during it; Declined those turned away.
	Sent     int `json:"sent"`
	Declined int `json:"declined"`
	Limit    int `json:"limit"` // MaxPendingAsks
}

// admit takes one of server's MaxPendingAsks places for a request that
// waits for an answer, and release gives it back. With every place taken
// the request is declined at once: the error is tooManyAsks, and the
// burst is counted in the server's snapshot.
func (p *askParts) admit(server string) (release func(), err error) {
	e := p.e
	err = e.withEntry(server, func(en *entry) error {
		a := &en.asks
		t := time.Now()
		bursting := a.flood.Seq > 0 && t.Sub(a.lastDecline) < askBurstGap
		if a.asking < MaxPendingAsks {
			a.asking++
			if bursting {
				a.flood.Sent++
				p.publishLocked(en, server)
			}
			release = func() { e.locked(func() { a.asking-- }) }
			return nil
		}
		d := a.flood
		if !bursting {
			d = AskFlood{Seq: d.Seq + 1, At: t, Sent: a.asking, Limit: MaxPendingAsks}
			e.log.Warn("declining a server's requests: too many wait for an answer", "server", server, "limit", MaxPendingAsks)
		}
		d.Sent++
		d.Declined++
		a.flood, a.lastDecline = d, t
		p.publishLocked(en, server)
		return tooManyAsks{}
	})
	return release, err
}

// publishLocked publishes the burst's counts within askPublish, one
// snapshot however many requests come meanwhile: a burst "at once" is
// mostly counted by the time the UIs first tell of it. Callers hold e.mu.
func (p *askParts) publishLocked(en *entry, server string) {
	if en.asks.timer != nil {
		return
	}
	e := p.e
	en.asks.timer = time.AfterFunc(askPublish, func() {
		e.locked(func() {
			en.asks.timer = nil
			if !e.closed && e.byName[server] == en {
				e.publishLocked()
			}
		})
	})
}

// flushLocked publishes the counts of a burst still waiting for its
// publish, so the last snapshot (which a CLI command reads after Close)
// has them. Close calls it while holding e.mu, before it marks the engine
// closed.
func (p *askParts) flushLocked() {
	flush := false
	for _, en := range p.e.order {
		if en.asks.timer != nil {
			en.asks.timer.Stop() // if it already fired, it finds the engine closed
			en.asks.timer = nil
			flush = true
		}
	}
	if flush {
		p.e.publishLocked()
	}
}
