package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// ErrUnknownServer is returned by Serve for a name it does not serve.
var ErrUnknownServer = errors.New("no demo server by that name")

// ErrCrash is what the crashy server returns when it "crashes".
var ErrCrash = errors.New("crashy: simulated crash")

// CrashAfter is how long the crashy server lives.
const CrashAfter = 20 * time.Second

// stdioServers are the servers `mcpdeck demo-server NAME` can serve.
func stdioServers() map[string]func() *server.MCPServer {
	m := Builtins()
	m["crashy"] = Crashy
	m["reviewer"] = Reviewer
	m["blocked"] = Reviewer // never runs: the demo policy blocks it
	return m
}

// Serve runs the named demo server over stdio until stdin closes, ctx ends
// or — for "crashy" — CrashAfter passes, when it returns ErrCrash (the
// command exits with code 3).
func Serve(ctx context.Context, name string, in io.Reader, out, errOut io.Writer) error {
	mk, ok := stdioServers()[name]
	if !ok {
		return fmt.Errorf("%w: %s", ErrUnknownServer, name)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	fmt.Fprintf(errOut, "%s: serving on stdio\n", name)
	crashed := make(chan struct{})
	if name == "crashy" {
		t := time.AfterFunc(CrashAfter, func() {
			fmt.Fprintf(errOut, "crashy: something went wrong, exiting after %s\n", CrashAfter)
			close(crashed)
			cancel()
		})
		defer t.Stop()
	}
	err := server.NewStdioServer(mk()).Listen(ctx, in, out)
	select {
	case <-crashed:
		return ErrCrash
	default:
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}
