package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/testdata/boxtest"
	"github.com/mcpdeck/mcpdeck/transports"
)

// transportCase is one way of reaching server-everything.
type transportCase struct {
	name string
	// server starts what is needed and returns the mcpServers entry.
	server func(t *testing.T, ctx context.Context, tools nodeTools) map[string]any
	// answersLost, when set, says why our answers to the server's requests
	// never reach it although its requests reach us.
	answersLost string
	// sandboxed: the server runs in the default sandbox (bubblewrap).
	sandboxed bool
}

var transportCases = []transportCase{
	{
		name: "stdio",
		server: func(t *testing.T, ctx context.Context, tools nodeTools) map[string]any {
			return map[string]any{"type": "stdio", "command": tools.Node, "args": []string{tools.Everything, "stdio"}}
		},
	},
	{
		name: "stdio-sandboxed",
		server: func(t *testing.T, ctx context.Context, tools nodeTools) map[string]any {
			boxtest.RequireMechanism(t)
			return map[string]any{"type": "stdio", "command": tools.Node, "args": []string{tools.Everything, "stdio"}, "sandbox": true}
		},
		sandboxed: true,
	},
	{
		name: "sse",
		server: func(t *testing.T, ctx context.Context, tools nodeTools) map[string]any {
			port := freePort(t)
			startBackground(t, ctx, "running on port", tools.env("PORT="+itoa(port)), tools.Node, tools.Everything, "sse")
			loopbackOnly(t, port)
			return map[string]any{"type": "sse", "url": fmt.Sprintf("http://127.0.0.1:%d/sse", port)}
		},
	},
	{
		name: "http",
		server: func(t *testing.T, ctx context.Context, tools nodeTools) map[string]any {
			port := freePort(t)
			startBackground(t, ctx, "listening on port", tools.env("PORT="+itoa(port)), tools.Node, tools.Everything, "streamableHttp")
			loopbackOnly(t, port)
			return map[string]any{"type": "http", "url": fmt.Sprintf("http://127.0.0.1:%d/mcp", port)}
		},
	},
	{
		name: "ws",
		server: func(t *testing.T, ctx context.Context, tools nodeTools) map[string]any {
			port := freePort(t)
			child := tools.Node + " " + tools.Everything + " stdio"
			startBackground(t, ctx, "Listening on port", tools.env(), tools.Node, tools.Supergateway,
				"--stdio", child, "--outputTransport", "ws", "--port", itoa(port))
			loopbackOnly(t, port)
			return map[string]any{"type": "ws", "url": fmt.Sprintf("ws://127.0.0.1:%d/message", port)}
		},
		answersLost: "supergateway 4.0.0's WebSocket server rewrites the id of every message a client sends " +
			"to \"<clientId>:<id>\" (server/websocket.js), responses included, so the child never matches our " +
			"answer to its elicitation/create or roots/list request and times out; our side receives and answers them",
	},
}

// harness is an engine connected to one server-everything named "everything".
type harness struct {
	ctx      context.Context
	eng      *engine.Engine
	root     string // project root the engine offers as roots
	elicitMu sync.Mutex
	elicits  []engine.ElicitRequest
	elicited chan struct{} // signalled on each elicitation request

	sampleMu     sync.Mutex
	sampleChoice string // the person's answer to the next sampling request
	samples      []engine.SampleRequest
}

const serverName = "everything"

func newHarness(t *testing.T, tc transportCase) *harness {
	t.Helper()
	tools := findNodeTools(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)

	entry := tc.server(t, ctx, tools)
	cfg, err := json.Marshal(map[string]any{"mcpServers": map[string]any{serverName: entry}})
	if err != nil {
		t.Fatal(err)
	}
	// An isolated world: no user, project or managed config but ours.
	base := t.TempDir()
	root := filepath.Join(base, "project")
	for _, d := range []string{root, filepath.Join(base, "config"), filepath.Join(base, "managed"), filepath.Join(base, "cache")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	h := &harness{ctx: ctx, root: root, elicited: make(chan struct{}, 1)}
	eng, err := engine.New(engine.Options{
		Load: config.LoadOptions{
			Cwd:        root,
			Home:       base,
			ConfigDir:  filepath.Join(base, "config"),
			ManagedDir: filepath.Join(base, "managed"),
			Dynamic:    []string{string(cfg)},
			LookupEnv:  os.LookupEnv,
		},
		Factory:  transports.NewFactory(),
		CacheDir: filepath.Join(base, "cache"),
		Elicit:   h.answerElicitation,
		Sample:   h.answerSampling,
		// The reply echoes the request's text, read from the JSON on stdin.
		SamplingCommand: `sed -n 's/.*"text":"\([^"]*\)".*/echo: \1/p'`,
	})
	if err != nil {
		t.Fatal(err)
	}
	h.eng = eng
	t.Cleanup(func() {
		if err := eng.Close(); err != nil {
			t.Errorf("engine close: %v", err)
		}
	})
	if err := eng.Start(ctx); err != nil {
		t.Fatal(err)
	}
	return h
}

// answerElicitation plays the person filling in server-everything's form.
func (h *harness) answerElicitation(_ context.Context, req engine.ElicitRequest) (engine.ElicitResponse, error) {
	h.elicitMu.Lock()
	h.elicits = append(h.elicits, req)
	h.elicitMu.Unlock()
	select {
	case h.elicited <- struct{}{}:
	default:
	}
	return engine.ElicitResponse{Action: engine.ElicitAccept, Content: map[string]any{
		"name": "Ada Lovelace", "check": true, "integer": 7, "number": 2.5,
	}}, nil
}

// answerSampling plays the person answering a sampling prompt.
func (h *harness) answerSampling(_ context.Context, req engine.SampleRequest) (engine.SampleResponse, error) {
	h.sampleMu.Lock()
	defer h.sampleMu.Unlock()
	h.samples = append(h.samples, req)
	return engine.SampleResponse{Choice: h.sampleChoice}, nil
}

// waitServer waits for a snapshot in which the server satisfies cond; it
// fails at once if the server failed.
func (h *harness) waitServer(t *testing.T, what string, cond func(engine.ServerSnapshot) bool) engine.ServerSnapshot {
	t.Helper()
	check := func(s engine.Snapshot) (engine.ServerSnapshot, bool) {
		for _, srv := range s.Servers {
			if srv.Name != serverName {
				continue
			}
			if srv.State == model.StateFailed || srv.State == model.StateNeedsAuth || srv.State == model.StateDisabled {
				t.Fatalf("waiting for %s: server is %s: %s\n%s\nstderr:\n%s", what, srv.State, srv.Error,
					srv.ErrorDetail, strings.Join(srv.StderrTail, "\n"))
			}
			return srv, cond(srv)
		}
		return engine.ServerSnapshot{}, false
	}
	if srv, ok := check(h.eng.Snapshot()); ok {
		return srv
	}
	for {
		select {
		case s, open := <-h.eng.Updates():
			if !open {
				t.Fatalf("waiting for %s: engine closed", what)
			}
			if srv, ok := check(s); ok {
				return srv
			}
		case <-h.ctx.Done():
			srv, _ := check(h.eng.Snapshot())
			t.Fatalf("waiting for %s: %v; server state %s, %d tools, %d resources", what, h.ctx.Err(),
				srv.State, len(srv.Tools), len(srv.Resources))
		}
	}
}

func (h *harness) connected(t *testing.T) engine.ServerSnapshot {
	t.Helper()
	return h.waitServer(t, "connected with tools", func(s engine.ServerSnapshot) bool {
		return s.State == model.StateConnected && hasTool(s, "get-sum")
	})
}

func hasTool(s engine.ServerSnapshot, name string) bool {
	for _, t := range s.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

func hasResource(s engine.ServerSnapshot, uri string) bool {
	for _, r := range s.Resources {
		if r.URI == uri {
			return true
		}
	}
	return false
}

func text(cs []engine.Content) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.Text)
		b.WriteString("\n")
	}
	return b.String()
}

func (h *harness) call(t *testing.T, tool string, args map[string]any, progress func(engine.Progress)) engine.ToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(h.ctx, 30*time.Second)
	defer cancel()
	res, err := h.eng.CallTool(ctx, serverName, tool, args, progress)
	if err != nil {
		t.Fatalf("call %s: %v", tool, err)
	}
	if res.IsError {
		t.Fatalf("call %s: tool error: %s", tool, text(res.Content))
	}
	return res
}

func TestEverything(t *testing.T) {
	for _, tc := range transportCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tc)
			srv := h.connected(t)

			if tc.sandboxed {
				t.Run("runs in the sandbox", func(t *testing.T) {
					if kids := childProcesses(); !slices.ContainsFunc(kids, func(k string) bool { return strings.HasSuffix(k, "(bwrap)") }) {
						t.Errorf("no bwrap among our children %v: the server runs unsandboxed", kids)
					}
				})
			}
			t.Run("lists", func(t *testing.T) {
				if srv.ServerInfo.Name == "" {
					t.Errorf("no serverInfo from initialize")
				}
				for _, want := range []string{"echo", "get-sum", "trigger-long-running-operation"} {
					if !hasTool(srv, want) {
						t.Errorf("tool %s not listed", want)
					}
				}
				for _, tool := range srv.Tools {
					if tool.ExposedName != model.ToolName(serverName, tool.Name) {
						t.Errorf("tool %s exposed as %q", tool.Name, tool.ExposedName)
					}
				}
				if !hasResource(srv, "demo://resource/static/document/architecture.md") {
					t.Errorf("resource architecture.md not listed; got %d resources", len(srv.Resources))
				}
				if len(srv.Prompts) == 0 {
					t.Errorf("no prompts listed")
				}
			})

			t.Run("call get-sum", func(t *testing.T) {
				res := h.call(t, "get-sum", map[string]any{"a": 2, "b": 40}, nil)
				if got := text(res.Content); !strings.Contains(got, "42") {
					t.Errorf("get-sum 2+40: %q", got)
				}
			})

			t.Run("read resource", func(t *testing.T) {
				res, err := h.eng.ReadResource(h.ctx, serverName, "demo://resource/static/document/architecture.md")
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Contents) == 0 || strings.TrimSpace(res.Contents[0].Text) == "" {
					t.Errorf("empty resource: %+v", res.Contents)
				}
			})

			t.Run("get prompt", func(t *testing.T) {
				res, err := h.eng.GetPrompt(h.ctx, serverName, "args-prompt", map[string]string{"city": "Lisbon", "state": "Portugal"})
				if err != nil {
					t.Fatal(err)
				}
				if got := text(res.Messages); !strings.Contains(got, "Lisbon") {
					t.Errorf("args-prompt: %q", got)
				}
			})

			t.Run("log messages", func(t *testing.T) {
				h.call(t, "toggle-simulated-logging", map[string]any{}, nil) // sends one at once, then one every 5 s
				// The server may log other things first (it logs the roots it
				// receives): wait for a simulated message.
				var simulated *engine.LogEntry
				for simulated == nil {
					select {
					case s := <-h.eng.Updates():
						for _, srv := range s.Servers {
							for i, l := range srv.Logs {
								if srv.Name == serverName && strings.Contains(l.Data, "message") {
									simulated = &srv.Logs[i]
								}
							}
						}
					case <-h.ctx.Done():
						t.Fatal("no simulated log message reached a snapshot")
					}
				}
				if engine.LogLevelRank(simulated.Level) < 0 {
					t.Errorf("log entry %+v", simulated)
				}
				if err := h.eng.SetLogLevel(h.ctx, serverName, "error"); err != nil { // logging/setLevel
					t.Errorf("SetLogLevel: %v", err)
				}
				if err := h.eng.SetLogLevel(h.ctx, serverName, "loud"); err == nil {
					t.Error("an unknown level was sent")
				}
				h.call(t, "toggle-simulated-logging", map[string]any{}, nil) // off again
			})

			t.Run("completions", func(t *testing.T) {
				ref := engine.CompletionRef{Prompt: "completable-prompt"}
				got, err := h.eng.Complete(h.ctx, serverName, ref, "department", "S", nil)
				if err != nil || !slices.Equal(got, []string{"Sales", "Support"}) {
					t.Fatalf("department S: %v %v", got, err)
				}
				// the second argument depends on the first, given as context
				got, err = h.eng.Complete(h.ctx, serverName, ref, "name", "", map[string]string{"department": "Sales"})
				if err != nil || !slices.Equal(got, []string{"David", "Eve", "Frank"}) {
					t.Fatalf("name in Sales: %v %v", got, err)
				}
			})

			t.Run("progress", func(t *testing.T) {
				var mu sync.Mutex
				var seen []engine.Progress
				res := h.call(t, "trigger-long-running-operation", map[string]any{"duration": 0.3, "steps": 3},
					func(p engine.Progress) {
						mu.Lock()
						seen = append(seen, p)
						mu.Unlock()
					})
				if got := text(res.Content); !strings.Contains(got, "completed") {
					t.Errorf("long-running result: %q", got)
				}
				mu.Lock()
				defer mu.Unlock()
				if len(seen) == 0 {
					t.Fatalf("no progress notifications")
				}
				if last := seen[len(seen)-1]; last.Progress != 3 || last.Total != 3 {
					t.Errorf("last progress %+v, want 3/3 (all: %+v)", last, seen)
				}
			})

			t.Run("resources list_changed", func(t *testing.T) {
				// gzip-file-as-resource registers a new session resource,
				// which makes the server send notifications/resources/list_changed.
				data := "data:text/plain;base64," + base64.StdEncoding.EncodeToString([]byte("hello from mcpdeck"))
				h.call(t, "gzip-file-as-resource", map[string]any{"name": "e2e.txt.gz", "data": data}, nil)
				h.waitServer(t, "resources/list_changed refetch", func(s engine.ServerSnapshot) bool {
					for _, r := range s.Resources {
						if strings.HasSuffix(r.URI, "e2e.txt.gz") {
							return true
						}
					}
					return false
				})
			})

			t.Run("subscription", func(t *testing.T) {
				const uri = "demo://resource/static/document/architecture.md"
				if err := h.eng.Watch(h.ctx, serverName, uri); err != nil {
					t.Fatal(err)
				}
				h.call(t, "toggle-subscriber-updates", map[string]any{}, nil) // the server starts announcing updates
				defer h.call(t, "toggle-subscriber-updates", map[string]any{}, nil)
				s := h.waitServer(t, "an update re-read", func(s engine.ServerSnapshot) bool {
					return len(s.Watched) == 1 && s.Watched[0].Updates >= 1 && !s.Watched[0].ReadAt.Before(s.Watched[0].ChangedAt)
				})
				w := s.Watched[0]
				if w.URI != uri || len(w.Contents) == 0 || strings.TrimSpace(w.Contents[0].Text) == "" || w.ReadError != "" {
					t.Errorf("watched resource: %+v", w)
				}
				if err := h.eng.Unwatch(h.ctx, serverName, uri); err != nil {
					t.Fatal(err)
				}
				h.waitServer(t, "unwatched", func(s engine.ServerSnapshot) bool { return len(s.Watched) == 0 })
			})

			t.Run("tools list_changed", func(t *testing.T) {
				// Tools that depend on client capabilities are registered
				// after initialization and announced with list_changed.
				h.waitServer(t, "conditional tools", func(s engine.ServerSnapshot) bool {
					return hasTool(s, "trigger-elicitation-request") && hasTool(s, "get-roots-list") && hasTool(s, "trigger-sampling-request")
				})
			})

			if tc.answersLost != "" {
				t.Run("elicitation request received", func(t *testing.T) {
					ctx, cancel := context.WithCancel(h.ctx)
					done := make(chan error, 1)
					go func() {
						_, err := h.eng.CallTool(ctx, serverName, "trigger-elicitation-request", map[string]any{}, nil)
						done <- err
					}()
					select {
					case <-h.elicited:
					case err := <-done:
						t.Fatalf("call ended (%v) without an elicitation request reaching us", err)
					case <-h.ctx.Done():
						t.Fatalf("no elicitation request reached us: %v", h.ctx.Err())
					}
					cancel()
					<-done
					t.Skip(tc.answersLost)
				})
				return
			}

			t.Run("elicitation", func(t *testing.T) {
				res := h.call(t, "trigger-elicitation-request", map[string]any{}, nil)
				got := text(res.Content)
				if !strings.Contains(got, "Name: Ada Lovelace") || !strings.Contains(got, "Favorite Integer: 7") {
					t.Errorf("elicitation answer not used: %q", got)
				}
				h.elicitMu.Lock()
				defer h.elicitMu.Unlock()
				if len(h.elicits) != 1 {
					t.Fatalf("%d elicitation requests, want 1", len(h.elicits))
				}
				req := h.elicits[0]
				if req.Server != serverName || req.Mode != "form" || !strings.Contains(string(req.Schema), `"name"`) {
					t.Errorf("elicitation request: %+v", req)
				}
			})

			t.Run("sampling replied by a command", func(t *testing.T) {
				h.sampleMu.Lock()
				h.sampleChoice, h.samples = engine.SampleOnce, nil
				h.sampleMu.Unlock()
				res := h.call(t, "trigger-sampling-request", map[string]any{"prompt": "two plus two", "maxTokens": 20}, nil)
				got := text(res.Content)
				if !strings.Contains(got, "echo: Resource trigger-sampling-request context: two plus two") || !strings.Contains(got, `"model": "command"`) {
					t.Errorf("the command's reply did not reach the server: %q", got)
				}
				h.sampleMu.Lock()
				defer h.sampleMu.Unlock()
				if len(h.samples) != 1 {
					t.Fatalf("%d sampling prompts, want 1", len(h.samples))
				}
				req := h.samples[0]
				if req.Server != serverName || req.MaxTokens != 20 || req.SystemPrompt != "You are a helpful test server." ||
					req.Command == "" || req.FirstLine() != "Resource trigger-sampling-request context: two plus two" {
					t.Errorf("sampling prompt: %+v", req)
				}
			})

			t.Run("sampling declined", func(t *testing.T) {
				h.sampleMu.Lock()
				h.sampleChoice = engine.SampleDecline
				h.sampleMu.Unlock()
				ctx, cancel := context.WithTimeout(h.ctx, 30*time.Second)
				defer cancel()
				res, err := h.eng.CallTool(ctx, serverName, "trigger-sampling-request", map[string]any{"prompt": "no"}, nil)
				if err == nil && !res.IsError {
					t.Fatalf("a declined sampling request gave a result: %q", text(res.Content))
				}
				if msg := fmt.Sprint(err) + text(res.Content); !strings.Contains(msg, "declined") {
					t.Errorf("the failure does not say it was declined: %s", msg)
				}
				s := h.waitServer(t, "sampling history", func(s engine.ServerSnapshot) bool { return len(s.Sampling) >= 2 })
				if last := s.Sampling[len(s.Sampling)-1]; last.Outcome != "declined" || last.Request != "Resource trigger-sampling-request context: no" {
					t.Errorf("history: %+v", s.Sampling)
				}
			})

			t.Run("roots", func(t *testing.T) {
				res := h.call(t, "get-roots-list", map[string]any{}, nil)
				uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(h.root)}).String()
				if got := text(res.Content); !strings.Contains(got, uri) {
					t.Errorf("roots do not name the project root %s: %q", uri, got)
				}
			})
		})
	}
}
