package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/testdata/faultlaunch"
)

// faultBin is testdata/faultserver, built on first use (TestMain removes it).
var faultBin faultlaunch.Binary

// withFlood is s with a burst of declined requests on the server named.
func withFlood(s engine.Snapshot, name string, f engine.AskFlood) engine.Snapshot {
	servers := append([]engine.ServerSnapshot(nil), s.Servers...)
	for i := range servers {
		if servers[i].Name == name {
			servers[i].Flood = f
		}
	}
	s.Servers = servers
	return s
}

// TestFloodNoticeOncePerBurst: a server's burst of declined requests is
// told on the status line, its counts following the snapshot while the
// line shows it; once another message replaced it, the same burst is not
// told again, and the next burst is.
func TestFloodNoticeOncePerBurst(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		f := newFakeEngine(fixture())
		h := newHarness(t, f, 160, 40)
		h.keys("esc") // the approval prompt of the fixture's project servers
		burst := engine.AskFlood{Seq: 1, At: t0, Sent: 5, Declined: 1, Limit: engine.MaxPendingAsks}
		h.send(snapshotMsg{snap: withFlood(fixture(), "notes", burst)})
		h.wantView("server notes sent 5 requests at once; mcpdeck lets 4 wait for an answer and declined the rest (1)")
		burst.Sent, burst.Declined = 10000, 9996
		h.send(snapshotMsg{snap: withFlood(fixture(), "notes", burst)})
		h.wantView("server notes sent 10000 requests at once; mcpdeck lets 4 wait for an answer and declined the rest (9996)")
		h.keys("ctrl+r")
		h.wantView("reload config: done")
		burst.Sent, burst.Declined = 10001, 9997
		h.send(snapshotMsg{snap: withFlood(fixture(), "notes", burst)})
		if v := h.view(); strings.Contains(v, "requests at once") {
			t.Fatalf("the same burst was told again:\n%s", v)
		}
		burst = engine.AskFlood{Seq: 2, At: t0, Sent: 7, Declined: 3, Limit: engine.MaxPendingAsks}
		h.send(snapshotMsg{snap: withFlood(fixture(), "notes", burst)})
		h.wantView("server notes sent 7 requests at once; mcpdeck lets 4 wait for an answer and declined the rest (3)")
	})
}

// TestFloodKeepsFewPrompts runs the TUI on the real engine with a fault
// server that sends a thousand elicitation requests at once, which nobody
// answers: after every message the TUI handles, at most
// engine.MaxPendingAsks prompts are open, and the status line tells of the
// burst with its final counts.
func TestFloodKeepsFewPrompts(t *testing.T) {
	bin := needFaultBin(t)
	const flood = 1000
	h := startLive(t, liveServers(t, map[string]any{
		"flood": map[string]any{"command": bin, "args": []string{"-elicit-flood", fmt.Sprint(flood)}},
	}), 160, 40)
	want := fmt.Sprintf("server flood sent %d requests at once; mcpdeck lets %d wait for an answer and declined the rest (%d)",
		flood, engine.MaxPendingAsks, flood-engine.MaxPendingAsks)
	deadline := time.NewTimer(60 * time.Second)
	defer deadline.Stop()
	for !strings.Contains(h.m.View(), want) {
		select {
		case msg := <-h.out:
			h.deliver(msg)
		case <-deadline.C:
			t.Fatalf("the screen never showed %q:\n%s", want, h.m.View())
		}
		if n := prompts(h.m); n > engine.MaxPendingAsks {
			t.Fatalf("%d prompts open at once, want at most %d", n, engine.MaxPendingAsks)
		}
	}
	if n := prompts(h.m); n != engine.MaxPendingAsks {
		t.Errorf("%d prompts open, want the %d the engine let wait", n, engine.MaxPendingAsks)
	}
}

// prompts counts the elicitation prompts open in m.
func prompts(m *Model) int {
	n := 0
	for _, md := range m.modals {
		if _, ok := md.Answers().(*elicitation); ok {
			n++
		}
	}
	return n
}
