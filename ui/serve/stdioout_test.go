package serve

import (
	"errors"
	"io"
	"testing"
)

// stuckWriter is an agent's stdout that the agent stopped reading: a
// write blocks until release is closed.
type stuckWriter struct{ entered, release chan struct{} }

func (w stuckWriter) Write(p []byte) (int, error) {
	close(w.entered)
	<-w.release
	return 0, io.ErrClosedPipe
}

// TestStdioOutClosesPastAStuckWrite: a notification written to an agent
// that no longer reads must not keep ServeStdio from returning (it hung
// the package's tests in CI once): close returns at once, and later
// writes are dropped.
func TestStdioOutClosesPastAStuckWrite(t *testing.T) {
	w := stuckWriter{entered: make(chan struct{}), release: make(chan struct{})}
	o := &stdioOut{w: w}
	done := make(chan error, 1)
	go func() {
		_, err := o.Write([]byte("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n"))
		done <- err
	}()
	<-w.entered
	o.close() // before the fix this waited for the stuck write forever
	if _, err := o.Write([]byte("{}\n")); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("a write after close = %v, want io.ErrClosedPipe", err)
	}
	close(w.release)
	if err := <-done; !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("the stuck write = %v, want the writer's error", err)
	}
}
