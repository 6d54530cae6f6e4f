package e2e

import (
	"bufio"
	"context"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// background is a server process a test runs (server-everything over
// HTTP, supergateway), in its own process group so the whole tree dies
// (process_unix_test.go / process_windows_test.go).
type background struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	output []string // last lines of stdout+stderr, for failure messages
	ready  chan struct{}
	exited chan struct{}
}

// startBackground runs argv with env added, and waits until a line of its
// output contains readyLine (the server saying it listens). It is stopped
// when the test ends.
func startBackground(t *testing.T, ctx context.Context, readyLine string, env []string, argv ...string) *background {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = w, w
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		t.Fatalf("start %s: %v", strings.Join(argv, " "), err)
	}
	w.Close()
	b := &background{cmd: cmd, ready: make(chan struct{}), exited: make(chan struct{})}
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		once := sync.Once{}
		for sc.Scan() {
			line := sc.Text()
			b.mu.Lock()
			b.output = append(b.output, line)
			if len(b.output) > 200 {
				b.output = b.output[1:]
			}
			b.mu.Unlock()
			if strings.Contains(line, readyLine) {
				once.Do(func() { close(b.ready) })
			}
		}
	}()
	go func() {
		_ = cmd.Wait()
		close(b.exited)
	}()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("output of %s:\n%s", strings.Join(argv, " "), b.tail())
		}
		stopGroup(cmd)
		select {
		case <-b.exited:
		case <-time.After(3 * time.Second):
			killGroup(cmd)
			<-b.exited
		}
		// the pipe's write end may be held by a grandchild until it dies too
		killGroup(cmd)
		<-scanned
		r.Close()
	})
	select {
	case <-b.ready:
	case <-b.exited:
		t.Fatalf("%s exited before it was ready:\n%s", strings.Join(argv, " "), b.tail())
	case <-ctx.Done():
		t.Fatalf("%s not ready (no %q in its output): %v\n%s", strings.Join(argv, " "), readyLine, ctx.Err(), b.tail())
	}
	return b
}

func (b *background) tail() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(b.output, "\n")
}

// freePort asks the kernel for a port that is free right now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func itoa(n int) string { return strconv.Itoa(n) }
