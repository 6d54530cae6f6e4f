package transports

import (
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestHTTPServerDiesMidCallIsConnectionLost kills a streamable HTTP server
// while a call waits for its answer on the call's own event stream (the
// server asked a question on it first): mcp-go then says only "unexpected
// nil response". The call's error must say the connection was lost.
func TestHTTPServerDiesMidCallIsConnectionLost(t *testing.T) {
	url, cmd := startNet(t, "-http")
	asked := make(chan struct{})
	c := open(t, model.ServerConfig{Type: model.TransportHTTP, URL: url}, Options{
		Elicit: func(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
			close(asked)
			return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{}}}, nil
		},
	})
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := call(ctx, c, "stall", nil)
		errc <- err
	}()
	select {
	case <-asked:
	case err := <-errc:
		t.Fatalf("stall returned before it asked: %v", err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	err := <-errc
	if !errors.Is(err, ErrConnectionLost) || !Broke(err) || Classify(err) != ClassTransient || ctx.Err() != nil {
		t.Fatalf("err = %v (class %v, broke %v), want ErrConnectionLost", err, Classify(err), Broke(err))
	}
	if got := Humanize(err); got != "the connection to the server was lost" {
		t.Errorf("Humanize = %q", got)
	}
}

// TestBroke tells a connection that ended under a request from a request
// that failed on a working connection, and from one mcpdeck closed.
func TestBroke(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"exit", &ExitError{Code: 3}, true},
		{"lost", wrapSend(ErrConnectionLost), true},
		{"reset", wrapSend(opErr(syscall.ECONNRESET)), true},
		{"refused", wrapSend(opErr(syscall.ECONNREFUSED)), true},
		{"eof", wrapSend(io.EOF), true},
		{"closed by us", ErrClosed, false},
		{"timeout", &RequestTimeoutError{Method: "POST", URL: "http://h/mcp", After: time.Second}, false},
		{"status 503", errors.New("request failed with status 503: busy"), false},
		{"rpc", mcp.ErrInvalidParams, false},
		{"cancelled", context.Canceled, false},
	} {
		if got := Broke(tc.err); got != tc.want {
			t.Errorf("%s: Broke(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}

// wrapSend wraps err as mcp-go's client and streamable HTTP transport do.
func wrapSend(err error) error {
	return transport.NewError(fmt.Errorf("failed to send request: %w", fmt.Errorf("failed to send request: %w", err)))
}
