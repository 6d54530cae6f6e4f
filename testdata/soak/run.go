package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// startupBound is how long the fleet may take to connect at the start:
// 50 servers, the local ones a few at a time (mcpdeck's start-up gate),
// each within connectTimeout; the rest is margin.
const startupBound = 90 * time.Second

func run(ctx context.Context, o options) (*report, error) {
	ph := plan(o.duration)
	rnd := rand.New(rand.NewPCG(uint64(o.seed), 1))
	started := time.Now()
	w, err := newWorld(o)
	if err != nil {
		return nil, err
	}
	defer w.cleanup(o.keep)
	if o.keep {
		fmt.Fprintln(os.Stderr, "soak: the run's files are in", w.dir)
	}
	defer w.killAll()
	counts := &faultCounts{}
	servers := fleet(o.daemons)
	for _, s := range servers {
		switch {
		case s.remote():
			if err := s.startRemote(w, counts); err != nil {
				return nil, err
			}
			defer s.proxy.close()
			defer s.up.stop()
		case s.kind == "ide":
			s.editor = &editor{bin: w.editorBin, dir: w.claudeDir(), workspace: w.proj, log: w.logFile("editor")}
			if err := s.editor.start(); err != nil {
				return nil, err
			}
			defer s.editor.stop()
		}
	}
	if err := w.writeConfig(servers); err != nil {
		return nil, err
	}
	wl := &writeLog{verbose: o.verbose}
	wr, err := newWriters(w, servers, wl, counts)
	if err != nil {
		return nil, err
	}
	for _, s := range servers {
		if s.scope == "project" {
			wr.approve(ctx, s.name)
		}
	}

	r := &report{
		Command: "make soak SOAK_DURATION=" + o.duration.String(), Mcpdeck: o.mcpdeck, Seed: o.seed,
		Started: started.UTC().Format(time.RFC3339), Servers: len(servers), Transports: map[string]int{}, Agents: o.agents,
		Phases: map[string]any{
			"warm_s": ph.warm.Seconds(), "faults_s": (ph.faults - ph.warm).Seconds(), "reserve_s": (ph.end - ph.faults).Seconds(),
			"tool_timeout_s": toolTimeout.Seconds(), "connect_timeout_s": connectTimeout.Seconds(),
			"ping_interval_s": pingInterval.Seconds(), "call_timeout_s": callTimeout.Seconds(),
		},
		RecoveryMaxS: recoveryBound.Seconds(),
	}
	for _, s := range servers {
		r.Transports[s.transport]++
	}
	say := func(format string, args ...any) {
		if o.verbose {
			fmt.Fprintf(os.Stderr, "soak: %5.1fs "+format+"\n", append([]any{time.Since(started).Seconds()}, args...)...)
		}
	}

	if err := w.startServe(ctx); err != nil {
		return nil, err
	}
	lctx, stopWatching := context.WithCancel(ctx)
	defer stopWatching()
	go w.tree.watch(lctx, w.serve.cmd.Process.Pid, time.Second)
	start := time.Now()
	if err := w.waitConnected(ctx, len(servers), startupBound); err != nil {
		return nil, err
	}
	say("%d servers connected", len(servers))

	fr := &fleetRun{servers: servers, tally: newTally(), verbose: o.verbose}
	actx, stopAgents := context.WithCancel(ctx)
	defer stopAgents()
	var agents sync.WaitGroup
	var clients []*agent
	for i := range o.agents {
		a, err := dial(ctx, w, i, i%2 == 0)
		if err != nil {
			return nil, err
		}
		a.rnd = rand.New(rand.NewPCG(rnd.Uint64(), rnd.Uint64()))
		clients = append(clients, a)
	}
	var closeOnce sync.Once
	closeAgents := func() {
		closeOnce.Do(func() {
			for _, a := range clients {
				_ = a.c.Close() // ends the session (DELETE): before serve stops, to be heard
			}
		})
	}
	defer closeAgents()
	fillStart := time.Now()
	fill(ctx, clients, servers, fr)
	say("filled mcpdeck's bounded buffers in %s", time.Since(fillStart).Round(time.Millisecond))
	for _, a := range clients {
		agents.Go(func() { a.loop(actx, fr) })
	}

	// The warm-up lasts its share of the run, and at least 5 s of the
	// agents' own calls after the fill.
	warmEnd := start.Add(ph.warm)
	if t := time.Now().Add(5 * time.Second); t.After(warmEnd) {
		warmEnd = t
	}
	sleepUntil(ctx, warmEnd)
	first, err := w.sample(ctx, fr)
	if err != nil {
		return nil, fmt.Errorf("start sample: %w", err)
	}
	say("start sample: %+v", first)
	r.RSSStartMB, r.GoroutinesStart, r.HeapStartMB = first.rss, first.goroutines, first.heap

	fr.phase.Store(phaseFaults)
	fctx, stopFaults := context.WithDeadline(ctx, start.Add(ph.faults))
	defer stopFaults()
	in := &injector{w: w, servers: servers, counts: counts, rnd: rand.New(rand.NewPCG(rnd.Uint64(), 2)), verbose: o.verbose, errs: make(chan string, 64)}
	var faulting sync.WaitGroup
	faulting.Go(func() { in.run(fctx) })
	faulting.Go(func() { wr.run(fctx, rand.New(rand.NewPCG(rnd.Uint64(), 3))) })
	faulting.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	fr.phase.Store(phaseRecovery)
	say("faults stopped, config restored")
	close(in.errs)
	for e := range in.errs {
		r.Notes = append(r.Notes, e)
	}

	took, notRecovered, byCall, err := w.recover(ctx, servers, fr)
	if err != nil {
		return nil, err
	}
	r.RecoveryS, r.NotRecovered, r.RecoveredByCall = took.Seconds(), notRecovered, byCall
	say("recovered in %s (%d not)", took.Round(time.Millisecond), len(notRecovered))
	fr.phase.Store(phaseSteady)

	sleepUntil(ctx, start.Add(ph.end))
	last, err := w.sample(ctx, fr)
	if err != nil {
		return nil, fmt.Errorf("end sample: %w", err)
	}
	say("end sample: %+v", last)
	r.RSSEndMB, r.GoroutinesEnd, r.HeapEndMB = last.rss, last.goroutines, last.heap

	stopAgents()
	agents.Wait()
	closeAgents()
	w.tree.scan(w.serve.cmd.Process.Pid)
	exitTook, err := w.stopServe()
	stopWatching()
	r.ExitS = exitTook.Seconds()
	if err != nil {
		r.ExitError = err.Error()
	}
	orphans := w.orphans()
	r.Orphans = len(orphans)
	for _, p := range orphans {
		r.OrphanList = append(r.OrphanList, p.String())
	}
	wr.final(context.Background())

	r.fill(fr.tally)
	r.Faults, r.FaultsInjected = counts.snapshot()
	r.FaultsInjected += r.FaultCalls
	r.Faults["fault_calls"] = r.FaultCalls
	r.Writes, r.WritesLost, r.WritesList = wl.n, wl.nLost, wl.lost
	for _, s := range wl.refused {
		r.Notes = append(r.Notes, "write refused: "+s)
	}
	r.DurationS = time.Since(start).Seconds()
	return r, nil
}

func sleepUntil(ctx context.Context, t time.Time) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Until(t)):
	}
}

// fillCalls is how many calls fill makes of each server: each keeps the
// last 500 frames of its traffic (engine's maxTrafficFrames), a call
// with 8 progress notifications is 10 frames, a plain call 2.
const (
	fillProgressCalls = 60
	fillPlainCalls    = 260
	fillLogs          = 1100 // past the 1000 log messages kept per server (engine's maxLogEntries)
)

// fill is the first part of the warm-up: it calls every server until
// what mcpdeck keeps of it (traffic, log messages) is at its bound, so
// that memory measured from the start sample on grows only if something
// grows without one. The agents share the calls.
func fill(ctx context.Context, agents []*agent, servers []*server, fr *fleetRun) {
	jobs := make(chan call, 1024)
	go func() {
		defer close(jobs)
		rnd := rand.New(rand.NewPCG(7, 7))
		var all []call
		for _, s := range servers {
			switch {
			case s.role == roleFlood:
				all = append(all, call{server: s.name, tool: "flood", args: map[string]any{"count": fillLogs}, want: fmt.Sprintf("sent %d notifications", fillLogs)})
				fallthrough
			case s.kind == "fault":
				for range fillProgressCalls {
					all = append(all, call{server: s.name, tool: "progress", args: map[string]any{"steps": 8}, want: "did 8 steps", progress: true})
				}
			default:
				for range fillPlainCalls {
					all = append(all, probe(s, rnd))
				}
			}
		}
		rnd.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		for _, c := range all {
			select {
			case jobs <- c:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for _, a := range agents {
		wg.Go(func() {
			for c := range jobs {
				fr.tally.add(a.do(ctx, c), "warm", fr.verbose)
			}
		})
	}
	wg.Wait()
}

// waitConnected waits until serve offers n servers, all connected.
func (w *world) waitConnected(ctx context.Context, n int, bound time.Duration) error {
	deadline := time.Now().Add(bound)
	for {
		h, err := w.health(ctx)
		if err == nil && h.Servers == n && h.Connected == n {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("after %s serve offers %d servers, %d connected, want %d (%v): %s", bound, h.Servers, h.Connected, n, err, tail(w.serve.log, 2000))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-w.serve.done:
			return fmt.Errorf("mcpdeck serve exited: %s", tail(w.serve.log, 2000))
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// snapshot is one sample of the serve process: its resident memory,
// the heap its last GC found live, and its goroutines.
type snapshot struct {
	rss, heap  float64
	goroutines int
}

// sample pauses the agents (waiting for the calls in flight), lets the
// goroutine count settle, and reads it with the process's memory: the
// lowest count over the last 3 s, once it held still for 3 s (or
// settleBound passed).
func (w *world) sample(ctx context.Context, fr *fleetRun) (snapshot, error) {
	fr.gate.Lock()
	defer fr.gate.Unlock()
	var seen []int
	deadline := time.Now().Add(settleBound)
	var s snapshot
	for {
		rt, err := w.runtime(ctx)
		if err != nil {
			return s, err
		}
		seen = append(seen, rt.Goroutines)
		s.heap = float64(rt.HeapLiveBytes) / (1 << 20)
		window := seen[max(0, len(seen)-6):]
		if len(seen) >= 6 && (slices.Min(window) == slices.Max(window) || time.Now().After(deadline)) {
			s.goroutines = slices.Min(window)
			break
		}
		select {
		case <-ctx.Done():
			return s, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
	rss, err := rssMB(w.serve.cmd.Process.Pid)
	s.rss = rss
	return s, err
}

// recover calls every server through serve, once a second each, until
// each answers, and says how long the slowest took; those that did not
// answer within recoveryBound are named with their last error.
func (w *world) recover(ctx context.Context, servers []*server, fr *fleetRun) (slowest time.Duration, failed, byCall []string, err error) {
	a, err := dial(ctx, w, 99, false)
	if err != nil {
		return 0, nil, nil, err
	}
	defer a.c.Close()
	start := time.Now()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, s := range servers {
		rnd := rand.New(rand.NewPCG(uint64(i), 4))
		wg.Go(func() {
			last := "no answer"
			for try := 0; time.Since(start) < recoveryBound && ctx.Err() == nil; try++ {
				c := probe(s, rnd)
				o := a.do(ctx, c)
				fr.tally.add(o, "recovery", false)
				if !o.lost && !o.isErr && (c.want == "" || o.result == c.want) {
					mu.Lock()
					slowest = max(slowest, time.Since(start))
					mu.Unlock()
					return
				}
				if try == 0 && strings.Contains(o.err, reconnectedByCall) {
					mu.Lock()
					byCall = append(byCall, s.name+": "+o.err)
					mu.Unlock()
				}
				last = o.err
				time.Sleep(time.Second)
			}
			mu.Lock()
			failed = append(failed, s.name+": "+last)
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.Sort(failed)
	slices.Sort(byCall)
	if len(failed) == 0 {
		if h, err := w.health(ctx); err != nil || h.Servers != len(servers) || h.Connected != h.Servers {
			failed = append(failed, fmt.Sprintf("serve's /health: %d offered, %d connected, want %d (%v)", h.Servers, h.Connected, len(servers), err))
		}
	}
	return slowest, failed, byCall, nil
}

// reconnectedByCall is what serve adds when a call finds its server
// failed or signed out and asks it to connect again: such a server gave
// up (its backoff ran out, or it crashed in a loop) and recovers by that
// call, as serve promises, not by itself.
const reconnectedByCall = "mcpdeck is connecting it again"

// orphans are the run's processes still alive once serve exited, after
// 5 s for the ones already dying: those carrying the run's marker, and
// those seen below serve during the run (lineage). They are killed: the
// run leaves nothing behind.
func (w *world) orphans() []proc {
	var left []proc
	for range 25 {
		left = marked(w.runID)
		for _, p := range w.tree.alive() {
			if !slices.ContainsFunc(left, func(q proc) bool { return q.pid == p.pid }) {
				left = append(left, p)
			}
		}
		if len(left) == 0 {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	for _, p := range left {
		_ = syscall.Kill(p.pid, syscall.SIGKILL)
	}
	return left
}

// killAll ends whatever of the run is still running (after an error).
func (w *world) killAll() {
	if w.serve.cmd != nil {
		select {
		case <-w.serve.done:
		default:
			_ = w.serve.cmd.Process.Kill()
			<-w.serve.done
		}
	}
	for _, p := range marked(w.runID) {
		_ = syscall.Kill(p.pid, syscall.SIGKILL)
	}
}
