package localgate

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// startAll asks the gate for n places at once and reports how many were
// given so far through the returned counter; each holder keeps its place
// until hold is closed.
func startAll(t *testing.T, g *Gate, n int, hold chan struct{}) *atomic.Int64 {
	t.Helper()
	var got atomic.Int64
	for range n {
		go func() {
			release, err := g.Acquire(t.Context())
			if err != nil {
				return
			}
			got.Add(1)
			<-hold
			release()
		}()
	}
	return &got
}

// TestLocalGateLendsPlacesOfWaitingStarts: by default 3 connects run; each
// still under way after lendAfter lets one more start, while the CPU is
// idle, up to maxLocalStarts; a busy CPU stops the lending; the environment
// variable fixes the number.
func TestLocalGateLendsPlacesOfWaitingStarts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := New(0, func() bool { return false })
		hold := make(chan struct{})
		got := startAll(t, g, 40, hold)
		synctest.Wait()
		if n := got.Load(); n != 3 {
			t.Fatalf("at once: %d started, want 3", n)
		}
		time.Sleep(lendAfter)
		synctest.Wait()
		if n := got.Load(); n != 6 {
			t.Fatalf("after one lending period: %d started, want 6", n)
		}
		time.Sleep(10 * lendAfter)
		synctest.Wait()
		if n := got.Load(); n != maxLocalStarts {
			t.Fatalf("in the end: %d started, want the cap %d", n, maxLocalStarts)
		}
		close(hold)
		synctest.Wait()
		if g.active != 0 || g.limit != defaultLocalBatch {
			t.Fatalf("after all ended: active %d, limit %d", g.active, g.limit)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		var busy atomic.Bool
		busy.Store(true)
		g := New(0, busy.Load)
		hold := make(chan struct{})
		got := startAll(t, g, 10, hold)
		time.Sleep(5 * lendAfter)
		synctest.Wait()
		if n := got.Load(); n != 3 {
			t.Fatalf("busy CPU: %d started, want 3", n)
		}
		busy.Store(false)
		time.Sleep(lendAfter)
		synctest.Wait()
		if n := got.Load(); n != 6 {
			t.Fatalf("CPU calmed: %d started, want 6", n)
		}
		close(hold)
	})
	synctest.Test(t, func(t *testing.T) {
		g := New(5, func() bool { return false })
		hold := make(chan struct{})
		got := startAll(t, g, 10, hold)
		time.Sleep(5 * lendAfter)
		synctest.Wait()
		if n := got.Load(); n != 5 {
			t.Fatalf("MCP_SERVER_CONNECTION_BATCH_SIZE=5: %d started", n)
		}
		close(hold)
	})
}

// TestLocalGateGivesUpWithTheContext: a waiter whose context ends leaves.
func TestLocalGateGivesUpWithTheContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := New(1, func() bool { return false })
		release, err := g.Acquire(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if _, err := g.Acquire(ctx); err == nil {
			t.Fatal("acquired a place with an ended context")
		}
		release()
	})
}
