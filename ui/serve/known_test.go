package serve

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/transports"
)

// These tests run a real engine and gateway on in-process servers (the
// engine's built-ins) inside a synctest bubble: the fake clock says when
// an answer came, and a server is held back by a channel, not by luck.

// connectTimeout is the engine's connect timeout in these tests
// (MCP_TIMEOUT's default).
const connectTimeout = 30 * time.Second

// inproc is an in-process server: its tools each answer with their own
// name and arguments, and it holds its tools/list (so its connect) until
// come is closed (nil: never holds).
type inproc struct {
	tools []string
	come  chan struct{}
	// prompt, when set, is a prompt with one argument, "arg", whose
	// completion offers the value typed and the prompt's name.
	prompt string
}

// inprocCompleter completes an inproc prompt's argument.
type inprocCompleter struct{}

func (inprocCompleter) CompletePromptArgument(_ context.Context, prompt string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	return &mcp.Completion{Values: []string{arg.Value + "-" + prompt}}, nil
}

func (p inproc) build() *server.MCPServer {
	hooks := &server.Hooks{}
	if p.come != nil {
		come := p.come
		hooks.AddBeforeListTools(func(ctx context.Context, _ any, _ *mcp.ListToolsRequest) {
			select {
			case <-come:
			case <-ctx.Done():
			}
		})
	}
	opts := []server.ServerOption{server.WithToolCapabilities(true), server.WithHooks(hooks)}
	if p.prompt != "" {
		opts = append(opts, server.WithPromptCapabilities(true), server.WithCompletions(), server.WithPromptCompletionProvider(inprocCompleter{}))
	}
	s := server.NewMCPServer("inproc", "1", opts...)
	if p.prompt != "" {
		s.AddPrompt(mcp.NewPrompt(p.prompt, mcp.WithArgument("arg")), func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("", nil), nil
		})
	}
	for _, name := range p.tools {
		s.AddTool(mcp.NewTool(name, mcp.WithString("text")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(name + ":" + req.GetString("text", "")), nil
		})
	}
	return s
}

// startInproc starts a gateway on servers (name → how it is built), its
// lists remembered in cache, within the test's bubble; it closes with the
// test.
func startInproc(t *testing.T, cache string, servers map[string]func() *server.MCPServer, o Options) *Gateway {
	t.Helper()
	home := t.TempDir()
	load := config.LoadOptions{
		Cwd: filepath.Join(home, "proj"), Home: home, ConfigDir: filepath.Join(home, "config"),
		ManagedDir: filepath.Join(home, "managed"), LookupEnv: func(string) (string, bool) { return "", false },
	}
	if err := os.MkdirAll(load.Cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	eo := engine.Options{Load: load, Factory: transports.NewFactory(), CacheDir: cache, Builtins: servers}
	for name := range servers {
		cfg := model.ServerConfig{Type: model.TransportSDK, Name: name}
		eo.Extra = append(eo.Extra, model.Server{Name: name, Raw: cfg, Config: cfg})
	}
	if o.Prefix == "" {
		o.Prefix = PrefixAlways
	}
	g, err := New(t.Context(), eo, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	return g
}

// inprocAgent is an agent of g in process, initialized.
func inprocAgent(t *testing.T, g *Gateway) *agent {
	t.Helper()
	ic, err := client.NewInProcessClient(g.srv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ic.Close() })
	return startAgent(t, ic)
}

// timed is an answer and when it came, from the start of the wait.
type timed[T any] struct {
	v   T
	err error
	at  time.Duration
}

// answer runs ask in the background (it must not fail the test: it runs
// on a goroutine of its own) and returns a channel of its result with the
// time it took.
func answer[T any](ask func() (T, error)) <-chan timed[T] {
	start := time.Now()
	out := make(chan timed[T], 1)
	go func() { v, err := ask(); out <- timed[T]{v, err, time.Since(start)} }()
	return out
}

// listed is a's tools/list, by name.
func (a *agent) listed(ctx context.Context) ([]string, error) {
	res, err := a.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, tl := range res.Tools {
		out = append(out, tl.Name)
	}
	return out, nil
}

// called is a call's text, and whether it is an error result.
type called struct {
	text  string
	isErr bool
}

// callNamed calls name with text as its argument.
func (a *agent) callNamed(ctx context.Context, name, text string) (called, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, map[string]any{"text": text}
	res, err := a.CallTool(ctx, req)
	if err != nil {
		return called{}, err
	}
	return called{resultText(res), res.IsError}, nil
}

// noAnswerYet fails when ch already answered.
func noAnswerYet[T any](t *testing.T, ch <-chan timed[T], what string) {
	t.Helper()
	synctest.Wait()
	select {
	case a := <-ch:
		t.Fatalf("%s answered before its server came: %v at %s", what, a.v, a.at)
	default:
	}
}

// warmUp runs the servers once, all coming at once, so that cache holds
// their lists.
func warmUp(t *testing.T, cache string, servers map[string]inproc) {
	t.Helper()
	built := map[string]func() *server.MCPServer{}
	for n, p := range servers {
		p.come = nil
		built[n] = p.build
	}
	g := startInproc(t, cache, built, Options{})
	synctest.Wait()
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestFirstListWaitsForAnUnknownServer (cold): a server serve knows no
// lists of is waited for in the first tools/list, however long it takes
// within its connect timeout (here 5 s, far past issue 27's 1 s grace), so
// an agent that lists once gets its tools; a server that never comes is
// waited for only up to the connect timeout, or --wait when shorter.
func TestFirstListWaitsForAnUnknownServer(t *testing.T) {
	for _, c := range []struct {
		name   string
		comeAt time.Duration // 0: never
		wait   time.Duration // --wait
		at     time.Duration
		want   []string
	}{
		{"comes after 5 s", 5 * time.Second, 0, 5 * time.Second, []string{"fast__a", "slow__b"}},
		{"never comes", 0, 0, connectTimeout, []string{"fast__a"}},
		{"never comes, --wait 3s", 0, 3 * time.Second, 3 * time.Second, []string{"fast__a"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				come, release := gate()
				defer release()
				g := startInproc(t, t.TempDir(), map[string]func() *server.MCPServer{
					"fast": inproc{tools: []string{"a"}}.build,
					"slow": inproc{tools: []string{"b"}, come: come}.build,
				}, Options{StartupWait: c.wait})
				a := inprocAgent(t, g)
				first := answer(func() ([]string, error) { return a.listed(t.Context()) })
				if c.comeAt > 0 {
					time.Sleep(c.comeAt - time.Nanosecond)
					noAnswerYet(t, first, "the first tools/list")
					time.Sleep(time.Nanosecond)
					release()
				}
				got := <-first
				if got.err != nil || got.at != c.at || !slices.Equal(got.v, c.want) {
					t.Fatalf("first list = %v %v at %s, want %v at %s", got.v, got.err, got.at, c.want, c.at)
				}
			})
		})
	}
}

// TestFirstListAnsweredFromRememberedLists (warm): from the second start,
// a server still connecting is in the first tools/list at once (the fake
// clock does not move), from the lists its last run had; a server that
// fails is left out at once, its remembered tools withdrawn rather than
// offered to fail.
func TestFirstListAnsweredFromRememberedLists(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cache := t.TempDir()
		servers := map[string]inproc{"fast": {tools: []string{"a"}}, "slow": {tools: []string{"b"}}, "bad": {tools: []string{"c"}}}
		warmUp(t, cache, servers)

		come, release := gate()
		defer release()
		fail, failNow := gate()
		failNow()
		g := startInproc(t, cache, map[string]func() *server.MCPServer{
			"fast": servers["fast"].build,
			"slow": inproc{tools: []string{"b"}, come: come}.build,
			"bad":  failing(fail),
		}, Options{})
		a := inprocAgent(t, g)
		synctest.Wait() // fast connected, bad failed, slow still held
		start := time.Now()
		if names := a.toolNames(t); !slices.Equal(names, []string{"fast__a", "slow__b"}) || time.Since(start) != 0 {
			t.Fatalf("first list = %v after %s, want fast__a and slow__b at once", names, time.Since(start))
		}
		if s, _ := g.server("slow"); s.State == model.StateConnected {
			t.Fatal("slow connected: the list did not come from what was remembered")
		}
	})
}

// TestFailedServerIsNotWaitedFor: a server serve knows nothing of is
// waited for while it connects, and left out the moment it fails (here at
// 2 s), not waited for until its connect timeout nor while the engine
// retries it. One whose lists serve remembers is offered from them at
// once, and withdrawn (list_changed) when it fails rather than offered to
// fail.
func TestFailedServerIsNotWaitedFor(t *testing.T) {
	const failAt = 2 * time.Second
	t.Run("cold", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			fail, failNow := gate()
			defer failNow()
			g := startInproc(t, t.TempDir(), map[string]func() *server.MCPServer{
				"fast": inproc{tools: []string{"a"}}.build,
				"bad":  failing(fail),
			}, Options{})
			a := inprocAgent(t, g)
			first := answer(func() ([]string, error) { return a.listed(t.Context()) })
			time.Sleep(failAt)
			noAnswerYet(t, first, "the first tools/list")
			failNow()
			got := <-first
			if got.err != nil || got.at != failAt || !slices.Equal(got.v, []string{"fast__a"}) {
				t.Fatalf("first list = %v %v at %s, want fast__a when bad failed (%s)", got.v, got.err, got.at, failAt)
			}
		})
	})
	t.Run("warm", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			cache := t.TempDir()
			warmUp(t, cache, map[string]inproc{"fast": {tools: []string{"a"}}, "bad": {tools: []string{"c"}}})
			fail, failNow := gate()
			defer failNow()
			g := startInproc(t, cache, map[string]func() *server.MCPServer{
				"fast": inproc{tools: []string{"a"}}.build,
				"bad":  failing(fail),
			}, Options{})
			a := inprocAgent(t, g)
			got := <-answer(func() ([]string, error) { return a.listed(t.Context()) })
			if got.err != nil || got.at != 0 || !slices.Equal(got.v, []string{"bad__c", "fast__a"}) {
				t.Fatalf("first list = %v %v after %s, want bad__c and fast__a at once", got.v, got.err, got.at)
			}
			time.Sleep(failAt)
			failNow()
			a.note(t, string(mcp.MethodNotificationToolsListChanged), "bad failing")
			if names := a.toolNames(t); !slices.Equal(names, []string{"fast__a"}) {
				t.Fatalf("after bad failed: %v, want fast__a alone", names)
			}
			time.Sleep(10 * time.Second) // bad's retries fail too: it stays out
			if names := a.toolNames(t); !slices.Equal(names, []string{"fast__a"}) {
				t.Fatalf("while bad is retried: %v, want fast__a alone", names)
			}
		})
	})
}

// heldEv is a second start over fast (tool a) and ev, which the first
// start saw offering remembered and now offers live, held back until
// release: an agent of it, initialized. Defer release.
func heldEv(t *testing.T, remembered, live []string, o Options) (*agent, func()) {
	t.Helper()
	cache := t.TempDir()
	warmUp(t, cache, map[string]inproc{"fast": {tools: []string{"a"}}, "ev": {tools: remembered}})
	come, release := gate()
	g := startInproc(t, cache, map[string]func() *server.MCPServer{
		"fast": inproc{tools: []string{"a"}}.build,
		"ev":   inproc{tools: live, come: come}.build,
	}, o)
	return inprocAgent(t, g), release
}

// gate is a channel a test closes to let a server come (or fail), with
// release, which closes it if the test has not (defer it: the engine
// closes only once its servers are let go).
func gate() (chan struct{}, func()) {
	ch := make(chan struct{})
	var once sync.Once
	return ch, func() { once.Do(func() { close(ch) }) }
}

// failing is a built-in that fails to start once fail is closed (and at
// once from then on).
func failing(fail <-chan struct{}) func() *server.MCPServer {
	return func() *server.MCPServer {
		<-fail
		return nil
	}
}

// TestRememberedListsReplacedByLive: the first list comes from what the
// last run saw; when the server's live lists differ, the agent is told
// (tools/ and prompts/list_changed) and its next list is the live one.
// Live lists the same as remembered send nothing.
func TestRememberedListsReplacedByLive(t *testing.T) {
	for _, changed := range []bool{true, false} {
		t.Run(map[bool]string{true: "changed", false: "same"}[changed], func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				live := []string{"echo", "old"}
				if changed {
					live = []string{"echo", "new"}
				}
				a, release := heldEv(t, []string{"echo", "old"}, live, Options{})
				defer release()
				if names := a.toolNames(t); !slices.Equal(names, []string{"ev__echo", "ev__old", "fast__a"}) {
					t.Fatalf("first list %v, want the remembered", names)
				}
				release()
				synctest.Wait()
				if !changed {
					select {
					case n := <-a.notes:
						t.Fatalf("live lists the same as remembered sent %s", n.Method)
					default:
					}
					return
				}
				a.note(t, string(mcp.MethodNotificationToolsListChanged), "ev's live tools")
				if names := a.toolNames(t); !slices.Equal(names, []string{"ev__echo", "ev__new", "fast__a"}) {
					t.Errorf("after list_changed: %v, want the live list", names)
				}
			})
		})
	}
}

// TestCallWaitsForItsServer: a call to a remembered tool of a server
// still connecting waits for the server, then runs; when the server's
// live list no longer has the tool, the call says so, and the agent is
// told the list changed, its next list the live one.
func TestCallWaitsForItsServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, release := heldEv(t, []string{"echo", "old"}, []string{"echo", "new"}, Options{})
		defer release()
		if names := a.toolNames(t); !slices.Equal(names, []string{"ev__echo", "ev__old", "fast__a"}) {
			t.Fatalf("first list %v", names)
		}
		call := func(name string) <-chan timed[called] {
			return answer(func() (called, error) { return a.callNamed(t.Context(), name, "hi") })
		}
		echo, old := call("ev__echo"), call("ev__old")
		time.Sleep(3 * time.Second)
		noAnswerYet(t, echo, "ev__echo")
		release()
		if got := <-echo; got.err != nil || got.v != (called{"echo:hi", false}) || got.at != 3*time.Second {
			t.Errorf("ev__echo = %+v %v at %s, want echo:hi when ev came (3s)", got.v, got.err, got.at)
		}
		if got := <-old; got.err != nil || !got.v.isErr || !strings.Contains(got.v.text, `"ev__old"`) || !strings.Contains(got.v.text, "no longer has it") {
			t.Errorf("ev__old = %+v, want an error saying ev no longer has it", got.v)
		}
		a.note(t, string(mcp.MethodNotificationToolsListChanged), "ev's live list")
		if names := a.toolNames(t); !slices.Equal(names, []string{"ev__echo", "ev__new", "fast__a"}) {
			t.Errorf("after list_changed: %v", names)
		}
	})
}

// TestCompletionWaitsForItsServer: completion/complete for an argument of
// a remembered prompt, asked while its server is still connecting, waits
// for the server as a call does, then completes; it does not fail with
// "not connected" (the conformance suite's completion-complete through
// serve on stdio asked at once and failed so).
func TestCompletionWaitsForItsServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cache := t.TempDir()
		ev := inproc{tools: []string{"echo"}, prompt: "greet"}
		warmUp(t, cache, map[string]inproc{"ev": ev})
		come, release := gate()
		defer release()
		ev.come = come
		g := startInproc(t, cache, map[string]func() *server.MCPServer{"ev": ev.build}, Options{})
		a := inprocAgent(t, g)
		if _, err := a.listed(t.Context()); err != nil {
			t.Fatal(err)
		}
		done := answer(func() ([]string, error) {
			res, err := a.Complete(t.Context(), mcp.CompleteRequest{Params: mcp.CompleteParams{
				Ref:      mcp.PromptReference{Type: "ref/prompt", Name: "ev__greet"},
				Argument: mcp.CompleteArgument{Name: "arg", Value: "hi"},
			}})
			if err != nil {
				return nil, err
			}
			return res.Completion.Values, nil
		})
		time.Sleep(2 * time.Second)
		noAnswerYet(t, done, "completion/complete")
		release()
		if got := <-done; got.err != nil || !slices.Equal(got.v, []string{"hi-greet"}) || got.at != 2*time.Second {
			t.Errorf("completion = %v %v at %s, want [hi-greet] when ev came (2s)", got.v, got.err, got.at)
		}
	})
}

// TestCallToAServerThatNeverComes: a call waiting for its server ends at
// the connect timeout (or --wait) with the server's state, not never.
func TestCallToAServerThatNeverComes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, release := heldEv(t, []string{"echo"}, []string{"echo"}, Options{StartupWait: 4 * time.Second})
		defer release()
		got := <-answer(func() (called, error) { return a.callNamed(t.Context(), "ev__echo", "hi") })
		if got.err != nil || got.at != 4*time.Second || !got.v.isErr || !strings.Contains(got.v.text, "server ev is not connected") {
			t.Errorf("ev__echo = %+v %v at %s, want ev's state at 4s", got.v, got.err, got.at)
		}
	})
}

// TestCloseEndsTheWaits: closing the gateway lets go at once of a call
// waiting for its server and of a first list waiting for a server known
// of nothing, rather than holding them (and their goroutines) to the
// connect timeout.
func TestCloseEndsTheWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cache := t.TempDir()
		warmUp(t, cache, map[string]inproc{"ev": {tools: []string{"echo"}}})
		come, release := gate()
		defer release()
		g := startInproc(t, cache, map[string]func() *server.MCPServer{
			"ev":  inproc{tools: []string{"echo"}, come: come}.build,
			"new": inproc{tools: []string{"x"}, come: come}.build,
		}, Options{})
		a := inprocAgent(t, g)
		call := answer(func() (called, error) { return a.callNamed(t.Context(), "ev__echo", "hi") })
		list := answer(func() ([]string, error) { return a.listed(t.Context()) })
		time.Sleep(time.Second)
		noAnswerYet(t, call, "ev__echo")
		noAnswerYet(t, list, "the first tools/list")
		closed := make(chan error, 1)
		go func() { closed <- g.Close() }()
		if got := <-call; got.at != time.Second {
			t.Errorf("the call ended at %s, want when the gateway closed (1s)", got.at)
		}
		if got := <-list; got.at != time.Second {
			t.Errorf("the list ended at %s, want when the gateway closed (1s)", got.at)
		}
		if err := <-closed; err != nil {
			t.Error(err)
		}
	})
}
