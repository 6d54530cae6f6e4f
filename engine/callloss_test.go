package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine/callerr"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/testdata/faultlaunch"
)

// TestCallLostMidCallSaysReconnecting: a server whose connection ends
// during a call fails the call with callerr.ErrConnectionLost, naming why the
// connection ended and the reconnect attempt under way; a call that fails
// on a connection that stays up keeps its own error, reported at once.
func TestCallLostMidCallSaysReconnecting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["s"] = toolServer(map[string]server.ToolHandlerFunc{
			"die": func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				n.last("s").kill(exitErr(3))
				return nil, errors.New("connection reset by peer")
			},
			"blip": func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return nil, errors.New("connection reset by peer")
			},
		})
		e := newTestEngine(t, n, stdioServer("s"))
		mustStart(t, e)
		current(t, e, "s")

		start := time.Now()
		_, err := e.CallTool(context.Background(), "s", "blip", nil, nil)
		if err == nil || errors.Is(err, callerr.ErrConnectionLost) {
			t.Fatalf("blip on a working connection: %v", err)
		}
		if d := time.Since(start); d >= lossGrace {
			t.Errorf("blip was reported %s after it failed, want at once (the connection answers pings)", d)
		}
		if s := current(t, e, "s"); s.State != model.StateConnected {
			t.Fatalf("after blip: %s", s.State)
		}

		_, err = e.CallTool(context.Background(), "s", "die", nil, nil)
		var lost *callerr.ConnectionLostError
		if !errors.Is(err, callerr.ErrConnectionLost) || !errors.As(err, &lost) {
			t.Fatalf("die: %v", err)
		}
		if lost.State != model.StatePending || lost.Reason.Attempt != 1 || lost.Reason.MaxAttempts != 5 {
			t.Errorf("die: state %s reason %+v", lost.State, lost.Reason)
		}
		want := "calling die on s: the connection was lost during the call (server process exited); reconnecting (attempt 1/5)"
		if err.Error() != want {
			t.Errorf("die:\n got %q\nwant %q", err.Error(), want)
		}
		time.Sleep(time.Minute)
		if s := current(t, e, "s"); s.State != model.StateConnected {
			t.Errorf("no reconnect: %s", s.State)
		}
	})
}

// TestRealServerDiesMidCall kills real servers during a tool call, a
// resource read and a prompt get (stdio: the process exits) and during a
// call over streamable HTTP whose answer was due on its own event stream
// (where mcp-go says only "unexpected nil response"). Each says the
// connection was lost during the call and that it is reconnecting.
func TestRealServerDiesMidCall(t *testing.T) {
	bin := needFaultServer(t)
	url, cmd := faultlaunch.Start(t, bin, "-http")
	asked := make(chan struct{}, 1)
	e := realEngine(t, map[string]any{
		"crashy": map[string]any{"command": bin, "args": []string{"-crash-everywhere"}},
		"web":    map[string]any{"type": "http", "url": url},
	}, map[string]string{"MCP_TIMEOUT": "60000"}, func(o *Options) {
		o.Elicit = func(context.Context, ElicitRequest) (ElicitResponse, error) {
			asked <- struct{}{}
			return ElicitResponse{Action: ElicitAccept, Content: map[string]any{}}, nil
		}
	})
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	crashed := "the connection was lost during the call (the server process exited with code 3: crashing with code 3); reconnecting (attempt 1/5)"
	for what, do := range map[string]func() error{
		"calling crash on crashy: ":         func() error { _, err := e.CallTool(ctx, "crashy", "crash", nil, nil); return err },
		"reading fault://crash on crashy: ": func() error { _, err := e.ReadResource(ctx, "crashy", "fault://crash"); return err },
		"getting prompt crash on crashy: ":  func() error { _, err := e.GetPrompt(ctx, "crashy", "crash", nil); return err },
	} {
		await(t, e, "crashy", "connected", inState(model.StateConnected))
		err := do()
		if !errors.Is(err, callerr.ErrConnectionLost) || err.Error() != what+crashed {
			t.Errorf("got  %v\nwant %s", err, what+crashed)
		}
	}

	await(t, e, "web", "connected", inState(model.StateConnected))
	errc := make(chan error, 1)
	go func() { _, err := e.CallTool(ctx, "web", "stall", nil, nil); errc <- err }()
	<-asked
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	err := <-errc
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	want := "calling stall on web: the connection was lost during the call (connection refused at " + host + ": is the server running?); reconnecting (attempt 1/5)"
	if !errors.Is(err, callerr.ErrConnectionLost) || err.Error() != want {
		t.Errorf("web:\n got %v\nwant %s", err, want)
	}
}

// TestCallUnderAClosedConnectionIsNotCancelled: a call in flight when
// mcpdeck closes its connection (a reconnect the person asked for, or one
// the engine decided) fails saying the connection went and what happens
// next, never "cancelled", which is what a caller's own cancellation says.
func TestCallUnderAClosedConnectionIsNotCancelled(t *testing.T) {
	bin := needFaultServer(t)
	url, _ := faultlaunch.Start(t, bin, "-http")
	asked := make(chan struct{}, 1)
	e := realEngine(t, map[string]any{"web": map[string]any{"type": "http", "url": url}}, map[string]string{"MCP_TIMEOUT": "60000"}, func(o *Options) {
		o.Elicit = func(context.Context, ElicitRequest) (ElicitResponse, error) {
			asked <- struct{}{}
			return ElicitResponse{Action: ElicitAccept, Content: map[string]any{}}, nil
		}
	})
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "web", "connected", inState(model.StateConnected))
	errc := make(chan error, 1)
	go func() { _, err := e.CallTool(context.Background(), "web", "stall", nil, nil); errc <- err }()
	<-asked
	if err := e.Reconnect(context.Background(), "web"); err != nil {
		t.Fatal(err)
	}
	err := <-errc
	if err == nil || strings.Contains(err.Error(), "cancelled") || !strings.HasPrefix(err.Error(), "calling stall on web: the connection was closed during the call") {
		t.Errorf("got %v, want the connection closed during the call", err)
	}
}

// TestRequestWaitsForAReconnect: a call, a read and a prompt made while
// their server reconnects after a connection loss (a batch's next lines)
// wait for it and run; a call to a server still down when the connect
// timeout ends fails saying it is pending.
func TestRequestWaitsForAReconnect(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["s"] = toolServer(map[string]server.ToolHandlerFunc{
			"echo": func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText("echoed"), nil
			},
		})
		e := newTestEngine(t, n, stdioServer("s"))
		mustStart(t, e)
		current(t, e, "s")
		n.last("s").kill(exitErr(3))
		if s := current(t, e, "s"); s.State != model.StatePending {
			t.Fatalf("after the loss: %s", s.State)
		}
		start := time.Now()
		res, err := e.CallTool(context.Background(), "s", "echo", nil, nil)
		if err != nil || text(res) != "echoed" {
			t.Fatalf("a call during the reconnect: %+v %v", res, err)
		}
		if time.Since(start) == 0 {
			t.Error("the call did not wait for the reconnect")
		}

		n.set(func() { n.block["s"] = true }) // it stays down: every attempt hangs
		n.last("s").kill(exitErr(3))
		current(t, e, "s")
		start = time.Now()
		_, err = e.CallTool(context.Background(), "s", "echo", nil, nil)
		if !errors.Is(err, ErrNotConnected) || time.Since(start) > e.ConnectTimeout() {
			t.Errorf("a call to a server that stays down: %v after %s", err, time.Since(start))
		}
	})
}
