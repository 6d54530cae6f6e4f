package ui

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/styles"
)

// bigSnapshot has n servers in every state and scope, with tools tools in all.
func bigSnapshot(n, tools int) engine.Snapshot {
	states := []model.State{model.StateConnected, model.StatePending, model.StateFailed, model.StateNeedsAuth, model.StateDisabled}
	scopes := []model.Scope{model.ScopeUser, model.ScopeProject, model.ScopeLocal, model.ScopeDynamic, model.ScopePlugin}
	s := engine.Snapshot{Seq: 1, At: t0}
	per := tools / n
	for i := range n {
		sv := engine.ServerSnapshot{
			Name: fmt.Sprintf("server-%03d", i), Scope: scopes[i%len(scopes)], Transport: model.TransportStdio,
			State: states[i%len(states)], Enabled: true, Runnable: true, Policy: model.PolicyDecision{Allowed: true},
			Target: "cmd --flag", Error: "connection refused",
		}
		if sv.State == model.StatePending {
			sv.Attempt, sv.MaxAttempts, sv.NextRetry = 2, 5, t0.Add(7*time.Second)
		}
		for j := range per {
			sv.Tools = append(sv.Tools, engine.Tool{Name: fmt.Sprintf("tool_%d", j), Description: "does a thing"})
		}
		s.Servers = append(s.Servers, sv)
	}
	return s
}

func benchModel(b *testing.B, s engine.Snapshot) *Model {
	b.Helper()
	st := styles.New(styles.DefaultPalette(), false)
	m := New(newFakeEngine(s), Options{Now: func() time.Time { return t0 }, Styles: &st})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return m
}

// BenchmarkFirstFrame500 is New plus the first View with 500 servers
// (target: under 50 ms; connecting happens after the first frame).
func BenchmarkFirstFrame500(b *testing.B) {
	s := bigSnapshot(500, 0)
	st := styles.New(styles.DefaultPalette(), false)
	b.ReportAllocs()
	for b.Loop() {
		m := New(newFakeEngine(s), Options{Now: func() time.Time { return t0 }, Styles: &st})
		_ = m.View()
	}
}

// BenchmarkView500Servers10kTools is one frame of the list with 500
// servers holding 10 000 tools (target: under 5 ms).
func BenchmarkView500Servers10kTools(b *testing.B) {
	m := benchModel(b, bigSnapshot(500, 10000))
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkViewDetail10kTools is one frame of the Tools tab of a server
// with 10 000 tools.
func BenchmarkViewDetail10kTools(b *testing.B) {
	m := benchModel(b, bigSnapshot(1, 10000))
	m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	m.Update(tea.KeyMsg{Type: tea.KeyTab})
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkIdleFrame is a frame with nothing changed: its allocations per
// op are the per-frame cost while idle (they must not grow, see
// TestIdleFramesDoNotGrow).
func BenchmarkIdleFrame(b *testing.B) {
	m := benchModel(b, bigSnapshot(50, 500))
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkSnapshotBurst1000 pushes 1 000 snapshots of 500 servers through
// Update, as a burst of engine events would (the engine coalesces, so this
// is the worst case), with a key press and a frame at the end.
func BenchmarkSnapshotBurst1000(b *testing.B) {
	snaps := make([]engine.Snapshot, 1000)
	base := bigSnapshot(500, 0)
	for i := range snaps {
		snaps[i] = base
		snaps[i].Seq = uint64(i + 2)
	}
	m := benchModel(b, base)
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range snaps {
			m.Update(snapshotMsg{snap: s})
		}
		m.Update(tea.KeyMsg{Type: tea.KeyDown})
		_ = m.View()
	}
}

func TestIdleFramesDoNotGrow(t *testing.T) {
	st := styles.New(styles.DefaultPalette(), false)
	m := New(newFakeEngine(bigSnapshot(50, 500)), Options{Now: func() time.Time { return t0 }, Styles: &st})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	first := testing.AllocsPerRun(50, func() { _ = m.View() })
	for range 500 {
		_ = m.View()
	}
	later := testing.AllocsPerRun(50, func() { _ = m.View() })
	// a few allocations of noise (the race detector, pools) are not growth
	if later > first*1.05+2 {
		t.Fatalf("allocations per idle frame grew from %.0f to %.0f", first, later)
	}
}

// TestSnapshotBurstDoesNotFreezeInput: 1 000 snapshots published while the
// person types reach Update as at most two messages (the one the single
// reader already took, then the latest), so a key press waits for at most
// two snapshots' work (BenchmarkSnapshotBurst1000
// measures that work), and the screen shows the last snapshot.
func TestSnapshotBurstDoesNotFreezeInput(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		f := newFakeEngine(bigSnapshot(500, 0))
		h := newHarness(t, f, 120, 40)
		h.keys("esc", "g")
		before := h.snapshots
		last := bigSnapshot(500, 0)
		for i := range 1000 {
			s := last
			s.Seq = uint64(i + 2)
			f.publish(s)
		}
		last.Servers = append([]engine.ServerSnapshot(nil), last.Servers...)
		last.Servers[3].Name = "server-003-renamed" // first of the dynamic group, on screen
		f.publish(last)
		h.keys("j")
		if got := h.snapshots - before; got > 2 {
			t.Fatalf("Update got %d snapshot messages for a burst of 1 001, want at most 2", got)
		}
		if s := h.m.list.Selected(); s == nil {
			t.Fatal("the key press was lost")
		}
		h.wantView("server-003-renamed")
	})
}

// BenchmarkSnapshot50 is what a snapshot that changes nothing on screen
// costs the TUI (a health ping's traffic publishes one per server every
// 30 s): Update with it, then a frame; 50 connected servers with 20 tools
// each.
func BenchmarkSnapshot50(b *testing.B) {
	s := bigSnapshot(50, 1000)
	for i := range s.Servers {
		s.Servers[i].State = model.StateConnected
	}
	m := benchModel(b, s)
	b.ReportAllocs()
	for b.Loop() {
		s.Seq++
		m.Update(snapshotMsg{snap: s})
		_ = m.View()
	}
}
