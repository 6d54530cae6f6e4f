package platform

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Errors of Run besides those of starting the program and of its context.
var (
	// ErrTimedOut: the program (or something it started) was still running
	// when the run's time was up; the whole group was killed.
	ErrTimedOut = errors.New("did not finish in time")
	// ErrOutputTooLarge: the program printed more than the run keeps; the
	// whole group was killed.
	ErrOutputTooLarge = errors.New("printed too much")
	// ErrFailed: the program exited with a failure status or was killed.
	ErrFailed = errors.New("failed")
)

// Limits bound one Run.
type Limits struct {
	// Timeout bounds the whole run; 0 leaves only the context's.
	Timeout time.Duration
	// MaxOutput is how many bytes of stdout are kept; printing more fails
	// the run.
	MaxOutput int
}

// Bounds of every Run: how much stderr is kept for the error sentence, and
// how long the pipes may stay open once the group was ended (a process
// that left the group can hold them).
const (
	maxStderr  = 2048
	drainGrace = 500 * time.Millisecond
)

// Run runs cmd (not yet started; its Path already found and judged) to its
// end in its own process group, feeds it stdin, and returns what it printed
// on stdout. The group ends as a whole when the leader exits (nothing it
// left behind outlives it or holds a pipe), when the time is up, when ctx
// ends and when stdout passes lim.MaxOutput. Errors are sentences about
// "it" that never quote stdout (it may hold credentials); a failure quotes
// the first line of stderr.
func Run(ctx context.Context, cmd *exec.Cmd, stdin []byte, lim Limits) ([]byte, error) {
	if lim.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, lim.Timeout, ErrTimedOut)
		defer cancel()
	}
	p, err := newRunPipes(cmd, stdin != nil)
	if err != nil {
		return nil, err
	}
	g, err := StartGroup(cmd)
	p.closeChildEnds()
	if err != nil {
		p.closeOurEnds()
		return nil, err
	}
	stdout := NewCappedBuffer(lim.MaxOutput).OnOver(func() { g.Signal(Kill) })
	stderr := NewCappedBuffer(maxStderr)
	var wg sync.WaitGroup
	wg.Go(func() { _, _ = io.Copy(stdout, p.outR) })
	wg.Go(func() { _, _ = io.Copy(stderr, p.errR) })
	if p.inW != nil {
		wg.Go(func() {
			_, _ = p.inW.Write(stdin)
			_ = p.inW.Close()
		})
	}
	state, werr := waitGroup(ctx, g)
	g.Signal(Kill) // what the leader left behind ends with it
	g.Release()
	drained := make(chan struct{})
	go func() {
		wg.Wait()
		close(drained)
	}()
	timer := time.NewTimer(drainGrace)
	select {
	case <-drained:
	case <-timer.C:
		p.closeOurEnds()
		<-drained
	}
	timer.Stop()
	p.closeOurEnds()
	switch {
	case errors.Is(context.Cause(ctx), ErrTimedOut):
		return nil, &runError{fmt.Sprintf("it did not finish within %s", lim.Timeout), ErrTimedOut}
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case stdout.Over():
		return nil, &runError{"it printed more than " + sizeText(lim.MaxOutput), ErrOutputTooLarge}
	case werr != nil:
		return nil, fmt.Errorf("waiting for it: %w", werr)
	case !state.Success():
		return nil, failure(state, stderr.String())
	}
	return stdout.Bytes(), nil
}

// waitGroup waits for the leader to exit, killing the group first when ctx
// ends.
func waitGroup(ctx context.Context, g *Group) (*os.ProcessState, error) {
	type result struct {
		state *os.ProcessState
		err   error
	}
	exited := make(chan result, 1)
	go func() {
		st, err := g.Wait()
		exited <- result{st, err}
	}()
	select {
	case r := <-exited:
		return r.state, r.err
	case <-ctx.Done():
		g.Signal(Kill)
		r := <-exited
		return r.state, r.err
	}
}

// failure words a failed exit, with stderr's first line.
func failure(state *os.ProcessState, stderr string) error {
	msg := fmt.Sprintf("it exited with status %d", state.ExitCode())
	if sig := ExitSignal(state); sig != "" {
		msg = "it was killed by " + sig
	}
	if line := firstLine(stderr); line != "" {
		msg += ": " + line
	}
	return &runError{msg, ErrFailed}
}

// runError is one of Run's sentences; it is the sentinel of its kind.
type runError struct {
	msg  string
	kind error
}

func (e *runError) Error() string { return e.msg }

func (e *runError) Unwrap() error { return e.kind }

// firstLine is the first non-empty line of s, cut at 200 bytes.
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	line = strings.TrimSpace(line)
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return line
}

// sizeText words a byte count: "64 KB", "1 MB", "512 bytes".
func sizeText(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// runPipes are the pipes of one Run: the child's ends are handed to the
// program as files (so no copying goroutine of os/exec is involved), ours
// are read and written by Run.
type runPipes struct {
	outR, outW, errR, errW, inR, inW *os.File
	closeOnce                        sync.Once
}

func newRunPipes(cmd *exec.Cmd, withStdin bool) (*runPipes, error) {
	p := &runPipes{}
	var err error
	if p.outR, p.outW, err = os.Pipe(); err != nil {
		return nil, err
	}
	if p.errR, p.errW, err = os.Pipe(); err != nil {
		p.closeChildEnds()
		p.closeOurEnds()
		return nil, err
	}
	if withStdin {
		if p.inR, p.inW, err = os.Pipe(); err != nil {
			p.closeChildEnds()
			p.closeOurEnds()
			return nil, err
		}
		cmd.Stdin = p.inR
	}
	cmd.Stdout, cmd.Stderr = p.outW, p.errW
	return p, nil
}

// closeChildEnds closes the ends the child inherited (after Start).
func (p *runPipes) closeChildEnds() {
	for _, f := range []*os.File{p.outW, p.errW, p.inR} {
		if f != nil {
			_ = f.Close()
		}
	}
}

// closeOurEnds closes mcpdeck's ends, which ends the copying goroutines.
func (p *runPipes) closeOurEnds() {
	p.closeOnce.Do(func() {
		for _, f := range []*os.File{p.outR, p.errR, p.inW} {
			if f != nil {
				_ = f.Close()
			}
		}
	})
}
