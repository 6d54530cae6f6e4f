package transports

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/mcpdeck/mcpdeck/model/platform"
)

// wait reaps the process, kills what is left of its group, lets the readers
// drain, and fails the peer with an *ExitError (or ErrClosed when we closed).
func (t *stdioTransport) wait() {
	defer close(t.exited)
	state, werr := t.group.Wait()
	closedByUs := t.closing.Load() // else it died on its own, even if Close came since
	t.group.Signal(platform.Kill)  // grandchildren die with the server
	t.group.Release()
	timer := time.NewTimer(drainGrace)
	defer timer.Stop()
	for _, ch := range []chan struct{}{t.stdoutDone, t.stderrDone} {
		select {
		case <-ch:
		case <-timer.C:
			_ = t.stdout.Close()
			_ = t.stderr.Close()
			<-ch
		}
	}
	_ = t.stdout.Close()
	_ = t.stderr.Close()
	_ = t.stdin.Close()
	t.ring.close()
	if closedByUs {
		t.fail(ErrClosed)
		return
	}
	if werr != nil {
		t.fail(fmt.Errorf("wait for server process: %w", werr))
		return
	}
	t.fail(t.exitError(state))
}

func (t *stdioTransport) exitError(state *os.ProcessState) *ExitError {
	return &ExitError{Code: state.ExitCode(), Signal: platform.ExitSignal(state), StderrTail: t.ring.tail(exitTailLines)}
}

// shutdown runs SIGINT → 100 ms → SIGTERM → 400 ms → SIGKILL on the group,
// stopping as soon as the process is gone. An ended ctx skips to SIGKILL.
func (t *stdioTransport) shutdown(ctx context.Context) error {
	t.closeOnce.Do(func() {
		select {
		case <-t.exited:
		default:
			if !hasExited(t.pid) {
				t.closing.Store(true)
			}
		}
		_ = t.stdin.Close()
		steps := []struct {
			sig   platform.Stop
			grace time.Duration
		}{{platform.Interrupt, interruptGrace}, {platform.Terminate, terminateGrace}, {platform.Kill, killGrace}}
		for _, s := range steps {
			select {
			case <-t.exited:
				return
			default:
			}
			t.group.Signal(s.sig)
			timer := time.NewTimer(s.grace)
			select {
			case <-t.exited:
				timer.Stop()
				return
			case <-timer.C:
			case <-ctx.Done():
				timer.Stop()
				t.group.Signal(platform.Kill)
			}
		}
		timer := time.NewTimer(drainGrace) // SIGKILL landed; let wait() finish draining
		defer timer.Stop()
		select {
		case <-t.exited:
		case <-timer.C:
			t.closeErr = fmt.Errorf("server process %d did not exit after SIGKILL", t.pid)
		}
	})
	return t.closeErr
}
