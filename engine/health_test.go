package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestHungServerIsFoundByPing: a connected server that stops answering is
// treated as lost after two unanswered pings (30 s apart by default) and
// goes through the usual reconnect; the new connection answers again.
func TestHungServerIsFoundByPing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["s"] = demoServer
		e := newTestEngine(t, n, stdioServer("s"))
		mustStart(t, e)
		if s := current(t, e, "s"); s.State != model.StateConnected {
			t.Fatalf("state %s", s.State)
		}
		first := n.last("s")
		first.mu.Lock()
		first.deaf = true
		first.mu.Unlock()
		time.Sleep(59 * time.Second) // one miss at 40 s (a ping at 30 s waits 10 s); the second ping only starts at 60 s
		synctest.Wait()
		if s := current(t, e, "s"); s.State != model.StateConnected || n.opened("s") != 1 {
			t.Fatalf("lost after one missed ping: %s, %d opens", s.State, n.opened("s"))
		}
		time.Sleep(30 * time.Second) // the second miss at 70 s, then the backoff's first retry
		synctest.Wait()
		s := current(t, e, "s")
		if n.opened("s") != 2 || s.State != model.StateConnected || !first.isClosed() {
			t.Fatalf("after the second missed ping: %s, %d opens, old closed %v", s.State, n.opened("s"), first.isClosed())
		}
		lost := false
		for _, h := range s.History {
			lost = lost || (h.From == model.StateConnected && h.To == model.StatePending && strings.Contains(h.Cause.Error, "stopped answering"))
		}
		if !lost {
			t.Errorf("history shows no loss to an unanswered ping: %+v", s.History)
		}
	})
}

func TestPingSetting(t *testing.T) {
	for v, want := range map[string]time.Duration{"": 30 * time.Second, "0": 0, "5000": 5 * time.Second, "-1": 30 * time.Second, "x": 30 * time.Second} {
		lookup := func(string) (string, bool) { return v, v != "" }
		if got := readSettings(lookup).pingInterval; got != want {
			t.Errorf("MCPDECK_PING_INTERVAL=%q: %v, want %v", v, got, want)
		}
	}
}

// rpcPinger answers every ping with a JSON-RPC error.
type rpcPinger struct{ fakeSession }

func (*rpcPinger) Ping(context.Context) error {
	return fmt.Errorf("%w: ping", mcp.ErrMethodNotFound)
}

// TestErrorAnswerToPingIsAnAnswer: a server without ping answers "method
// not found"; it is there, so it is not lost.
func TestErrorAnswerToPingIsAnAnswer(t *testing.T) {
	p := newPinger(&rpcPinger{}, 30*time.Second)
	for range 5 {
		if err := p.tick(context.Background()); err != nil {
			t.Fatalf("lost a server that answers: %v", err)
		}
	}
}

// TestBusyServerIsNotPinged: while a call is under way the server is not
// pinged (a single-threaded server could not answer), so a long call on a
// deaf session is not cut short by the health check.
func TestBusyServerIsNotPinged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["s"] = demoServer
		e := newTestEngine(t, n, stdioServer("s"))
		mustStart(t, e)
		current(t, e, "s") // connected
		first := n.last("s")
		first.mu.Lock()
		first.deaf = true
		first.mu.Unlock()
		done := e.health.busy("s") // a long call
		time.Sleep(3 * time.Minute)
		synctest.Wait()
		if n.opened("s") != 1 || current(t, e, "s").State != model.StateConnected {
			t.Fatalf("a busy server was taken for lost: %d opens", n.opened("s"))
		}
		done()
	})
}
