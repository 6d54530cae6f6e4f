//go:build unix

package platform

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// shellCmd is the command Run gets: /bin/sh -c line, found and judged
// already (as launch does).
func shellCmd(line string) *exec.Cmd {
	prog, args := Shell(line)
	return &exec.Cmd{Path: prog, Args: append([]string{prog}, args...)}
}

// TestRunKillsTheWholeGroupAtTheTimeout: a script whose child started a
// grandchild that holds stdout (and a pipe the test watches) open is
// stopped at the timeout as a whole: Run returns ErrTimedOut, and the
// grandchild is gone (its end of the watched pipe closes), not left
// running for its 30 s.
func TestRunKillsTheWholeGroupAtTheTimeout(t *testing.T) {
	watchR, watchW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer watchR.Close()
	cmd := shellCmd(`sh -c 'sleep 30 & wait' & echo started; wait`)
	cmd.ExtraFiles = []*os.File{watchW} // fd 3, inherited by every descendant
	start := time.Now()
	out, err := Run(context.Background(), cmd, nil, Limits{Timeout: 300 * time.Millisecond, MaxOutput: 1024})
	_ = watchW.Close()
	if !errors.Is(err, ErrTimedOut) || err.Error() != "it did not finish within 300ms" {
		t.Fatalf("Run = %q, %v; want the timeout", out, err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	awaitGone(t, watchR, "the grandchild outlived the timeout")
}

// awaitGone waits until every holder of the pipe watch reads from has
// exited (EOF), failing after 10 s (the processes sleep for 30).
func awaitGone(t *testing.T, watch *os.File, failure string) {
	t.Helper()
	gone := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, watch)
		gone <- err
	}()
	timer := time.NewTimer(10 * time.Second)
	defer timer.Stop()
	select {
	case err := <-gone:
		if err != nil {
			t.Fatal(err)
		}
	case <-timer.C:
		_ = watch.Close()
		<-gone
		t.Fatal(failure)
	}
}

// TestRunEndsWhatTheProgramLeftBehind: a program that exits while a
// background child holds stdout returns at once with its output, and the
// child is ended with it.
func TestRunEndsWhatTheProgramLeftBehind(t *testing.T) {
	watchR, watchW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer watchR.Close()
	cmd := shellCmd(`sleep 30 & printf done`)
	cmd.ExtraFiles = []*os.File{watchW}
	out, err := Run(context.Background(), cmd, nil, Limits{Timeout: time.Minute, MaxOutput: 1024})
	_ = watchW.Close()
	if err != nil || string(out) != "done" {
		t.Fatalf("Run = %q, %v", out, err)
	}
	awaitGone(t, watchR, "the background child outlived the program")
}

// TestRunCapsOutput: a program that prints without end is stopped once it
// passed the cap, well before its timeout, and its output is not quoted.
func TestRunCapsOutput(t *testing.T) {
	start := time.Now()
	out, err := Run(context.Background(), shellCmd(`while :; do echo secret-secret-secret; done`), nil,
		Limits{Timeout: time.Minute, MaxOutput: 64 << 10})
	if !errors.Is(err, ErrOutputTooLarge) || err.Error() != "it printed more than 64 KB" || out != nil {
		t.Fatalf("Run = %d bytes, %v", len(out), err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("took %v: the cap did not stop it", d)
	}
}

// TestRunFeedsStdinAndReportsFailures: stdin reaches the program, its
// environment and directory are the command's, and a failure says the
// status and stderr's first line.
func TestRunFeedsStdinAndReportsFailures(t *testing.T) {
	dir := t.TempDir()
	cmd := shellCmd(`cat; printf " $X "; pwd`)
	cmd.Env, cmd.Dir = []string{"X=y"}, dir
	out, err := Run(context.Background(), cmd, []byte("in"), Limits{Timeout: time.Minute, MaxOutput: 1024})
	real, _ := filepath.EvalSymlinks(dir)
	if err != nil || !bytes.Equal(bytes.TrimSpace(out), []byte("in y "+real)) {
		t.Fatalf("Run = %q, %v", out, err)
	}
	_, err = Run(context.Background(), shellCmd(`echo "  token service down" >&2; echo more >&2; exit 3`), nil, Limits{Timeout: time.Minute, MaxOutput: 1024})
	if !errors.Is(err, ErrFailed) || err.Error() != "it exited with status 3: token service down" {
		t.Fatalf("failure: %v", err)
	}
	_, err = Run(context.Background(), shellCmd(`kill -9 $$`), nil, Limits{Timeout: time.Minute, MaxOutput: 1024})
	if !errors.Is(err, ErrFailed) || !strings.Contains(err.Error(), "killed by SIGKILL") {
		t.Fatalf("killed: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, shellCmd(`sleep 30`), nil, Limits{Timeout: time.Minute, MaxOutput: 1024}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}
