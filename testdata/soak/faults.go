package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"syscall"
	"time"
)

// faultEvery is how often, on average, a new fault episode starts
// somewhere in the fleet while faults run.
const faultEvery = 700 * time.Millisecond

// remoteFaults are the episodes a remote server's proxy runs, with their
// weights.
var remoteFaults = []struct {
	f fault
	w int
}{
	{faultDrop, 3}, {faultReset, 3}, {faultStall, 2}, {faultSlow, 2}, {fault5xx, 3}, {fault401, 1}, {faultRestart, 2},
}

// injector starts fault episodes on servers not in one until ctx ends,
// then waits for the episodes to end.
type injector struct {
	w       *world
	servers []*server
	counts  *faultCounts
	rnd     *rand.Rand
	verbose bool
	wg      sync.WaitGroup
	errs    chan string
}

func (in *injector) run(ctx context.Context) {
	var targets []*server
	for _, s := range in.servers {
		if s.remote() || s.role == roleHang || s.editor != nil {
			targets = append(targets, s)
		}
	}
	for {
		wait := time.Duration(float64(faultEvery) * (0.5 + in.rnd.Float64()))
		select {
		case <-ctx.Done():
			in.wg.Wait()
			return
		case <-time.After(wait):
		}
		s := targets[in.rnd.IntN(len(targets))]
		if !s.busy.CompareAndSwap(false, true) {
			continue
		}
		d := time.Duration(2000+in.rnd.IntN(8000)) * time.Millisecond
		switch {
		case s.editor != nil:
			in.wg.Go(func() { defer s.busy.Store(false); in.editorEpisode(s, min(d, 4*time.Second)) })
		case s.remote():
			f := pickFault(in.rnd)
			if f == faultStall {
				d += 5 * time.Second // long enough for calls and pings to notice
			}
			in.wg.Go(func() { defer s.busy.Store(false); in.remoteEpisode(ctx, s, f, d) })
		default:
			d = time.Duration(8000+in.rnd.IntN(12000)) * time.Millisecond // past two pings
			in.wg.Go(func() { defer s.busy.Store(false); in.hangEpisode(ctx, s, d) })
		}
	}
}

func pickFault(rnd *rand.Rand) fault {
	total := 0
	for _, f := range remoteFaults {
		total += f.w
	}
	n := rnd.IntN(total)
	for _, f := range remoteFaults {
		if n < f.w {
			return f.f
		}
		n -= f.w
	}
	return faultDrop
}

// remoteEpisode runs fault f on s for d (or until ctx ends: faults stop
// then).
func (in *injector) remoteEpisode(ctx context.Context, s *server, f fault, d time.Duration) {
	if in.verbose {
		fmt.Fprintf(os.Stderr, "soak: fault %s on %s for %s\n", f, s.name, d.Round(time.Millisecond))
	}
	if f == faultRestart {
		in.counts.add(f)
		if err := s.up.restart(min(d, 3*time.Second)); err != nil {
			in.errs <- fmt.Sprintf("restarting %s: %v", s.name, err)
		}
		return
	}
	s.proxy.start(f)
	defer s.proxy.end()
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// editorEpisode closes the editor and opens it again after down.
func (in *injector) editorEpisode(s *server, down time.Duration) {
	in.counts.add("editor_restart")
	if in.verbose {
		fmt.Fprintf(os.Stderr, "soak: fault editor_restart on %s for %s\n", s.name, down.Round(time.Millisecond))
	}
	if err := s.editor.restart(down); err != nil {
		in.errs <- fmt.Sprintf("restarting the editor: %v", err)
	}
}

// hangEpisode stops s's process (SIGSTOP) for d: it neither answers nor
// exits, which only mcpdeck's pings and call timeouts notice. mcpdeck
// may kill it meanwhile; a process still stopped at the end is
// continued.
func (in *injector) hangEpisode(ctx context.Context, s *server, d time.Duration) {
	p, ok := serverProcess(in.w.runID, in.w.serve.cmd.Process.Pid, s.name)
	if !ok || p.state == "T" {
		return // between two runs of the server
	}
	if syscall.Kill(p.pid, syscall.SIGSTOP) != nil {
		return
	}
	in.counts.add("hang")
	if in.verbose {
		fmt.Fprintf(os.Stderr, "soak: fault hang on %s (pid %d) for %s\n", s.name, p.pid, d.Round(time.Millisecond))
	}
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
	if q, ok := stat(p.pid); ok && q.state == "T" {
		_ = syscall.Kill(p.pid, syscall.SIGCONT)
	}
}
