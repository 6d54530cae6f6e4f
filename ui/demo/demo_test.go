package demo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"go.uber.org/goleak"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func connect(t *testing.T, s *server.MCPServer) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx := t.Context()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-11-25"
	init.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return c
}

func call(t *testing.T, c *client.Client, tool string, args map[string]any) string {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	r, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var b strings.Builder
	for _, ct := range r.Content {
		if tc, ok := ct.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestBuiltinServersWork(t *testing.T) {
	for name, mk := range Builtins() {
		t.Run(name, func(t *testing.T) {
			c := connect(t, mk())
			tools, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
			if err != nil || len(tools.Tools) == 0 {
				t.Fatalf("tools: %v %v", tools, err)
			}
		})
	}
	c := connect(t, Notes())
	if got := call(t, c, "add_note", map[string]any{"title": "t", "body": "b"}); !strings.Contains(got, `stored "t"`) {
		t.Fatalf("add_note: %s", got)
	}
	rr := mcp.ReadResourceRequest{}
	rr.Params.URI = "notes://t"
	res, err := c.ReadResource(t.Context(), rr)
	if err != nil || res.Contents[0].(mcp.TextResourceContents).Text != "b" {
		t.Fatalf("read: %v %v", res, err)
	}
	pr := mcp.GetPromptRequest{}
	pr.Params.Name = "summarize"
	pr.Params.Arguments = map[string]string{"topic": "demo"}
	if p, err := c.GetPrompt(t.Context(), pr); err != nil || len(p.Messages) != 1 {
		t.Fatalf("prompt: %v %v", p, err)
	}
	calc := connect(t, Calculator())
	if got := call(t, calc, "calculate", map[string]any{"op": "multiply", "a": 6, "b": 7}); got != "42" {
		t.Fatalf("calculate: %q", got)
	}
	w := connect(t, Weather())
	if got := call(t, w, "forecast", map[string]any{"city": "Oslo", "days": 2}); strings.Count(got, "day ") != 2 {
		t.Fatalf("forecast: %q", got)
	}
}

func TestSetupWritesAThrowAwayConfig(t *testing.T) {
	e, err := Setup("/opt/mcpdeck")
	if err != nil {
		t.Fatal(err)
	}
	res, err := config.Load(e.Load)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]func(model.Server) bool{
		"reviewer": func(s model.Server) bool {
			return s.Scope == model.ScopeProject && s.Approval.Status == model.ApprovalPending
		},
		"crashy": func(s model.Server) bool {
			return s.Scope == model.ScopeUser && s.Runnable() && s.Config.Command == "/opt/mcpdeck"
		},
		"blocked": func(s model.Server) bool { return !s.Policy.Allowed && strings.Contains(s.Policy.Rule, "blocked") },
	}
	for name, ok := range want {
		s, found := res.Server(name)
		if !found || !ok(s) {
			t.Errorf("server %s: found=%v %+v", name, found, s)
		}
	}
	for _, s := range res.Servers { // env values are secrets: none may hide a path the demo shows
		m := textsafe.NewMasker(s.Secrets()...)
		for _, path := range []string{s.RunsIn(), s.Source} {
			if got := m.Mask(path); got != path {
				t.Errorf("server %s: the demo shows %s as %s", s.Name, path, got)
			}
		}
	}
	if len(e.Extra) != 5 || len(e.Builtins) != 5 {
		t.Errorf("extra %d, builtins %d", len(e.Extra), len(e.Builtins))
	}
	e.Cleanup()
	if _, err := os.Stat(e.Dir); !os.IsNotExist(err) {
		t.Fatalf("demo dir left behind: %v", err)
	}
}

func TestServe(t *testing.T) {
	ctx := context.Background()
	if err := Serve(ctx, "nope", "", strings.NewReader(""), &strings.Builder{}, &strings.Builder{}); !errors.Is(err, ErrUnknownServer) {
		t.Fatalf("unknown server: %v", err)
	}
	// crashy: after a crash the next two starts fail at once, then it serves.
	dir := t.TempDir()
	var stderr strings.Builder
	writeInt(filepath.Join(dir, "crashy.failnext"), 2)
	for i, wantCrash := range []bool{true, true, false, false} {
		err := Serve(ctx, "crashy", dir, strings.NewReader(""), &strings.Builder{}, &stderr)
		if got := errors.Is(err, ErrCrash); got != wantCrash {
			t.Fatalf("start %d: err %v, want crash %v\n%s", i+1, err, wantCrash, stderr.String())
		}
	}
	// a request over stdio is answered
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")
	var out strings.Builder
	if err := Serve(ctx, "reviewer", "", in, &out, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"reviewer"`) {
		t.Fatalf("no initialize answer: %q", out.String())
	}
}

// TestMailerPullsTheRug: the mailer's send_email says what it does, then
// after rugPullAfter turns poisoned and the client is told its tools
// changed.
func TestMailerPullsTheRug(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := connect(t, mailer(rugPullAfter))
		changed := make(chan struct{}, 1)
		c.OnNotification(func(n mcp.JSONRPCNotification) {
			if n.Method == string(mcp.MethodNotificationToolsListChanged) {
				select {
				case changed <- struct{}{}:
				default:
				}
			}
		})
		desc := func() string {
			tools, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			for _, tl := range tools.Tools {
				if tl.Name == "send_email" {
					return tl.Description
				}
			}
			return ""
		}
		if d := desc(); d != mailerHonest {
			t.Fatalf("before: %q", d)
		}
		<-changed
		if d := desc(); d != mailerPoisoned {
			t.Fatalf("after: %q", d)
		}
		_ = c.Close()
	})
}
