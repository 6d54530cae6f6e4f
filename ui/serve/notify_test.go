package serve

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestListChangedWhenAServerConnects: an agent that listed before a slow
// server connected is sent tools/list_changed, and the list then holds
// the slow server's tools.
func TestListChangedWhenAServerConnects(t *testing.T) {
	r := newRig(t, map[string]any{
		"fast": fault(nil, nil),
		"slow": fault([]string{"-start-delay", "1500ms"}, nil),
	}, Options{StartupWait: time.Millisecond}, nil)
	a := r.stdioAgent()
	r.waitFor("fast connected", func(g *Gateway) bool { return state(g, "fast") == model.StateConnected })
	a.waitTools(t, "slow's tools", func(n []string) bool { return slices.Contains(n, "slow__echo") })
}

// TestFirstListWaitsForServersConnecting: the first tools/list waits (up
// to StartupWait) for servers still connecting, so an agent that ignores
// list_changed still gets every tool. (The rig waits up to waitLimit;
// the wait's own timing is TestFirstListWaitsForTheUnknown's.)
func TestFirstListWaitsForServersConnecting(t *testing.T) {
	r := newRig(t, map[string]any{"slow": fault([]string{"-start-delay", "500ms"}, nil)}, Options{}, nil)
	a := r.httpAgent()
	if names := a.toolNames(t); !slices.Contains(names, "slow__echo") {
		t.Errorf("first list = %v, want slow's tools", names)
	}
}

// agentKinds are the agents progress and cancellation must reach alike:
// one on 2025-11-25, and one on 2026-07-28 that can answer input, whose
// calls are relayed (relay.go) on their own goroutine.
var agentKinds = []struct {
	name  string
	start func(*rig) *agent
}{
	{"2025-11-25", func(r *rig) *agent { return r.stdioAgent() }},
	{"2026-07-28 relayed", func(r *rig) *agent {
		return r.modernStdioAgent(client.WithElicitationHandler(newFormAnswers(false)))
	}},
}

// TestProgressReachesTheAgent: the progress a server reports for a call
// reaches the agent under the agent's own progress token.
func TestProgressReachesTheAgent(t *testing.T) {
	for _, k := range agentKinds {
		t.Run(k.name, func(t *testing.T) {
			r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, nil)
			a := k.start(r)
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = "fa__progress", map[string]any{"steps": 3}
			req.Params.Meta = &mcp.Meta{ProgressToken: "agent-token-7"}
			res, err := a.CallTool(t.Context(), req)
			if err != nil || resultText(res) != "did 3 steps" {
				t.Fatalf("fa__progress: %v %+v", err, res)
			}
			for i := 1; i <= 3; i++ {
				n := a.note(t, string(mcp.MethodNotificationProgress), fmt.Sprintf("progress %d", i))
				f := n.Params.AdditionalFields
				if f["progressToken"] != "agent-token-7" || f["progress"] != float64(i) || f["total"] != float64(3) || f["message"] != fmt.Sprintf("step %d", i) {
					t.Errorf("progress %d = %v", i, f)
				}
			}
		})
	}
}

// TestCancellationReachesTheEngine: the agent's notifications/cancelled
// (sent over stdio when its request's context ends) cancels the engine's
// call, which was waiting on a server that never answers.
func TestCancellationReachesTheEngine(t *testing.T) {
	for _, k := range agentKinds {
		t.Run(k.name, func(t *testing.T) {
			r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, nil)
			a := k.start(r)
			a.toolNames(t)
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() {
				req := mcp.CallToolRequest{}
				req.Params.Name = "fa__hang"
				_, err := a.CallTool(ctx, req)
				done <- err
			}()
			r.waitFor("the hang call in flight", func(g *Gateway) bool { return g.routes.inFlight() == 1 })
			cancel()
			if err := <-done; err == nil {
				t.Error("the cancelled call returned no error")
			}
			r.waitFor("the engine's call to end", func(g *Gateway) bool { return g.routes.inFlight() == 0 })
			if got, _ := a.call(t, "fa__echo", map[string]any{"text": "after"}); got != "after" {
				t.Errorf("a call after the cancelled one = %q", got)
			}
		})
	}
}

// orderAgents are the agents the tests of what comes before a result run:
// over stdio, and over HTTP with the standalone GET stream open, where
// mcp-go hands each session notification to whichever of the session's
// streams reads first.
func orderAgents(t *testing.T) []struct {
	name  string
	start func(*rig) *agent
} {
	return []struct {
		name  string
		start func(*rig) *agent
	}{
		{"stdio", func(r *rig) *agent { return r.stdioAgent() }},
		{"http with a GET stream", func(r *rig) *agent {
			base := r.serveHTTP(HTTPOptions{Token: testToken})
			tr, err := transport.NewStreamableHTTP(base+"/mcp", transport.WithContinuousListening(), //nolint:staticcheck // agents on 2025-11-25 open the GET stream so
				transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + testToken}))
			if err != nil {
				t.Fatal(err)
			}
			c := client.NewClient(tr, agentOptions(nil)...)
			t.Cleanup(func() { _ = c.Close() })
			return startAgent(t, c)
		}},
	}
}

// TestLogsComeBeforeTheResult: a log message a server sends during a call
// reaches the agent before the call's result, over stdio and over HTTP
// with the agent's GET stream open. Sent to the session rather than on
// the request, it raced the result there (the conformance suite's
// tools-call-with-logging through serve saw 2 of 3 under load).
func TestLogsComeBeforeTheResult(t *testing.T) {
	for _, k := range orderAgents(t) {
		t.Run(k.name, func(t *testing.T) {
			r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, nil)
			a := k.start(r)
			//nolint:staticcheck // agents on 2025-11-25 set the level this way
			if err := a.SetLevel(t.Context(), mcp.SetLevelRequest{Params: mcp.SetLevelParams{Level: mcp.LoggingLevelInfo}}); err != nil {
				t.Fatal(err)
			}
			for call := 1; call <= 20; call++ {
				text := fmt.Sprintf("call-%d", call)
				if got, _ := a.call(t, "fa__log", map[string]any{"text": text}); got == "" {
					t.Fatalf("fa__log %s: no result", text)
				}
				seen := false
				for len(a.notes) > 0 { // what arrived before the result, no waiting
					n := <-a.notes
					if n.Method == string(mcp.MethodNotificationMessage) && n.Params.AdditionalFields["data"] == text {
						seen = true
					}
				}
				if !seen {
					t.Fatalf("call %d: its log message did not come before the result", call)
				}
			}
		})
	}
}

// TestProgressComesBeforeTheResult: every progress notification of a call
// reaches the agent before the call's result: over stdio, and over HTTP
// with the agent's standalone GET stream open, where mcp-go alone hands
// each notification to whichever of the session's streams reads first, so
// the result overtakes those sent to the GET stream and an agent that
// already has its result (the TypeScript SDK) drops them.
func TestProgressComesBeforeTheResult(t *testing.T) {
	for _, k := range orderAgents(t) {
		t.Run(k.name, func(t *testing.T) {
			r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, nil)
			a := k.start(r)
			for call := 1; call <= 10; call++ {
				tok := fmt.Sprintf("call-%d", call)
				req := mcp.CallToolRequest{}
				req.Params.Name, req.Params.Arguments = "fa__progress", map[string]any{"steps": 3}
				req.Params.Meta = &mcp.Meta{ProgressToken: tok}
				if res, err := a.CallTool(t.Context(), req); err != nil || resultText(res) != "did 3 steps" {
					t.Fatalf("fa__progress: %v %+v", err, res)
				}
				var got []any
				for len(a.notes) > 0 { // what arrived before the result, no waiting
					n := <-a.notes
					if f := n.Params.AdditionalFields; n.Method == string(mcp.MethodNotificationProgress) && f["progressToken"] == tok {
						got = append(got, f["progress"])
					}
				}
				if fmt.Sprint(got) != "[1 2 3]" {
					t.Fatalf("call %d: progress before the result = %v, want [1 2 3]", call, got)
				}
			}
		})
	}
}
