package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// ErrUnknownServer is returned by Serve for a name it does not serve.
var ErrUnknownServer = errors.New("no demo server by that name")

// ErrCrash is what the crashy server returns when it "crashes".
var ErrCrash = errors.New("crashy: simulated crash")

// CrashAfter is how long the crashy server lives.
const CrashAfter = 20 * time.Second

// readInt reads the number stored in path (0 when there is none).
func readInt(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}

// writeInt stores n in path; the demo state is best effort.
func writeInt(path string, n int) { _ = os.WriteFile(path, []byte(strconv.Itoa(n)), 0o600) }

// stdioServers are the servers `mcpdeck demo-server NAME` can serve.
func stdioServers() map[string]func() *server.MCPServer {
	m := Builtins()
	m["crashy"] = Crashy
	m["reviewer"] = Reviewer
	m["blocked"] = Reviewer // never runs: the demo policy blocks it
	return m
}

// StateEnv names the environment variable holding the demo's state
// directory (the crashy server counts its starts there).
const StateEnv = "MCPDECK_DEMO_STATE"

// Serve runs the named demo server over stdio until stdin closes, ctx ends
// or — for "crashy" — CrashAfter passes, when it returns ErrCrash. After a
// crash, crashy also fails its next two starts at once, so the reconnect
// attempts 1/5 → 3/5 with growing delays can be watched; stateDir keeps
// that count between processes ("" = never fail at start). A clean stop
// (reconnect, disable) does not count as a crash.
func Serve(ctx context.Context, name, stateDir string, in io.Reader, out, errOut io.Writer) error {
	mk, ok := stdioServers()[name]
	if !ok {
		return fmt.Errorf("%w: %s", ErrUnknownServer, name)
	}
	failNext := filepath.Join(stateDir, "crashy.failnext")
	if name == "crashy" && stateDir != "" {
		if n := readInt(failNext); n > 0 {
			writeInt(failNext, n-1)
			fmt.Fprintf(errOut, "crashy: failed to start (simulated, %d more to go)\n", n-1)
			return ErrCrash
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	fmt.Fprintf(errOut, "%s: serving on stdio\n", name)
	crashed := make(chan struct{})
	if name == "crashy" {
		t := time.AfterFunc(CrashAfter, func() {
			fmt.Fprintf(errOut, "crashy: something went wrong, exiting after %s\n", CrashAfter)
			if stateDir != "" {
				writeInt(failNext, 2) // the next two starts fail: watch the backoff grow
			}
			close(crashed)
			cancel()
		})
		defer t.Stop()
	}
	done := make(chan error, 1)
	go func() { done <- server.NewStdioServer(mk()).Listen(ctx, in, out) }()
	var err error
	select {
	case <-crashed:
		// Listen may be stuck reading stdin; the process exits without it.
		return ErrCrash
	case err = <-done:
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}
