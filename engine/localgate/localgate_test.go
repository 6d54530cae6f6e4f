package localgate

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// fakeCPU is the CPU use of made-up processes: a busy one has used 10 ms
// more at every look, a waiting one nothing more; an unknown pid cannot be
// read.
type fakeCPU struct {
	mu   sync.Mutex
	busy map[int]bool
	used map[int]time.Duration
}

func newFakeCPU() *fakeCPU { return &fakeCPU{busy: map[int]bool{}, used: map[int]time.Duration{}} }

func (f *fakeCPU) set(pid int, busy bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.busy[pid] = busy
}

func (f *fakeCPU) read(pid int) (time.Duration, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	busy, ok := f.busy[pid]
	if !ok {
		return 0, false
	}
	if busy {
		f.used[pid] += 10 * time.Millisecond
	}
	return f.used[pid], true
}

// startAll asks the gate for n places at once; the i-th admitted start
// reports process i+1, which cpu calls busy or waiting. It returns how many
// were admitted so far; each holder keeps its place until hold is closed.
func startAll(t *testing.T, g *Gate, n int, cpu *fakeCPU, busy bool, hold chan struct{}) *atomic.Int64 {
	t.Helper()
	var got atomic.Int64
	for range n {
		go func() {
			p, err := g.Acquire(t.Context())
			if err != nil {
				return
			}
			pid := int(got.Add(1))
			if cpu != nil {
				cpu.set(pid, busy)
				p.Started(pid)
			}
			<-hold
			p.Release()
		}()
	}
	return &got
}

// TestGateHoldsStartsThatUseTheCPU: starts whose processes keep using the
// CPU run 3 at a time however long they take.
func TestGateHoldsStartsThatUseTheCPU(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cpu := newFakeCPU()
		g := New(0, cpu.read)
		hold := make(chan struct{})
		end := sync.OnceFunc(func() { close(hold) })
		defer end()
		got := startAll(t, g, 20, cpu, true, hold)
		time.Sleep(time.Second)
		synctest.Wait()
		if n := got.Load(); n != defaultLocalBatch {
			t.Fatalf("busy starts: %d admitted after 1 s, want %d", n, defaultLocalBatch)
		}
		end()
		synctest.Wait()
		if len(g.places) != 0 {
			t.Fatalf("after all ended: %d places held", len(g.places))
		}
	})
}

// TestGateLetsWaitingStartsWaitTogether: a start whose process uses no CPU
// between two looks gives its place to the next, so waiting starts all
// wait at once, up to maxLocalStarts; one that computes again holds a
// place again.
func TestGateLetsWaitingStartsWaitTogether(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cpu := newFakeCPU()
		g := New(0, cpu.read)
		hold := make(chan struct{})
		defer close(hold)
		got := startAll(t, g, 40, cpu, false, hold)
		synctest.Wait()
		if n := got.Load(); n != 3 {
			t.Fatalf("at once: %d admitted, want 3", n)
		}
		time.Sleep(pollEvery) // the first poll sees no CPU used since the start
		synctest.Wait()
		if n := got.Load(); n != 6 {
			t.Fatalf("after one poll: %d admitted, want 6", n)
		}
		time.Sleep(40 * pollEvery)
		synctest.Wait()
		if n := got.Load(); n != maxLocalStarts {
			t.Fatalf("in the end: %d admitted, want the bound %d", n, maxLocalStarts)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		cpu := newFakeCPU()
		g := New(0, cpu.read)
		hold := make(chan struct{})
		defer close(hold)
		got := startAll(t, g, 10, cpu, false, hold)
		time.Sleep(2 * pollEvery)
		synctest.Wait()
		for pid := 1; pid <= 6; pid++ { // the waiting six compute again
			cpu.set(pid, true)
		}
		time.Sleep(pollEvery)
		synctest.Wait()
		before := got.Load()
		time.Sleep(20 * pollEvery)
		synctest.Wait()
		if n := got.Load(); n != before {
			t.Fatalf("with 6 computing: admitted went from %d to %d, want no more", before, n)
		}
	})
}

// TestGateTimesStartsItCannotWatch: a start with no process to read (an
// in-process server, a system without /proc) counts as waiting once it has
// been under way for idleAfter.
func TestGateTimesStartsItCannotWatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := New(0, func(int) (time.Duration, bool) { return 0, false })
		hold := make(chan struct{})
		defer close(hold)
		got := startAll(t, g, 10, nil, false, hold)
		time.Sleep(idleAfter - pollEvery)
		synctest.Wait()
		if n := got.Load(); n != 3 {
			t.Fatalf("before idleAfter: %d admitted, want 3", n)
		}
		time.Sleep(2 * pollEvery) // the first look past idleAfter
		synctest.Wait()
		if n := got.Load(); n != 6 {
			t.Fatalf("after idleAfter: %d admitted, want 6", n)
		}
	})
}

// TestGateFixedByTheEnvironment: MCP_SERVER_CONNECTION_BATCH_SIZE fixes the
// number, waiting or not.
func TestGateFixedByTheEnvironment(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cpu := newFakeCPU()
		g := New(5, cpu.read)
		hold := make(chan struct{})
		defer close(hold)
		got := startAll(t, g, 10, cpu, false, hold)
		time.Sleep(50 * pollEvery)
		synctest.Wait()
		if n := got.Load(); n != 5 {
			t.Fatalf("MCP_SERVER_CONNECTION_BATCH_SIZE=5: %d admitted", n)
		}
	})
}

// TestLocalGateGivesUpWithTheContext: a waiter whose context ends leaves.
func TestLocalGateGivesUpWithTheContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := New(1, func(int) (time.Duration, bool) { return 0, false })
		p, err := g.Acquire(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if _, err := g.Acquire(ctx); err == nil {
			t.Fatal("acquired a place with an ended context")
		}
		p.Release()
	})
}

// TestGateKeepsLookingWhileStartsChurn: starts that end every 7 ms (each
// waking the waiters) do not keep the gate from looking: a waiting start
// among them is still seen waiting.
func TestGateKeepsLookingWhileStartsChurn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cpu := newFakeCPU()
		g := New(0, cpu.read)
		cpu.set(1, false)
		a, err := g.Acquire(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		a.Started(1)
		defer a.Release()
		var next atomic.Int64
		next.Store(1)
		ctx, stop := context.WithCancel(t.Context())
		defer stop()
		var wg sync.WaitGroup
		for range 3 { // two hold the places a leaves, one waits
			wg.Go(func() {
				for ctx.Err() == nil {
					p, err := g.Acquire(ctx)
					if err != nil {
						return
					}
					pid := int(next.Add(1))
					cpu.set(pid, true)
					p.Started(pid)
					time.Sleep(7 * time.Millisecond) // out of step with the polls
					p.Release()
				}
			})
		}
		time.Sleep(10 * pollEvery)
		synctest.Wait()
		g.mu.Lock()
		idle := a.idle
		g.mu.Unlock()
		stop()
		wg.Wait()
		if !idle {
			t.Fatal("a waiting start among starts that end every 7 ms was never seen waiting")
		}
	})
}
