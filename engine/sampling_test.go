package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/private"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// samplingEngine connects an engine to the asking server with sample as
// the person's answer.
func samplingEngine(t *testing.T, sample SampleFunc, tweak func(*Options)) (*Engine, string) {
	t.Helper()
	a := newAskingServer(t)
	var cfgDir string
	e := realEngine(t, map[string]any{"s": map[string]any{"type": "http", "url": a.http.URL}}, nil, func(o *Options) {
		o.Sample = sample
		cfgDir = o.Load.ConfigDir
		if tweak != nil {
			tweak(o)
		}
	})
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "s", "connected", inState(model.StateConnected))
	return e, cfgDir
}

// TestSamplingInTheInputRequiredRound: on 2026-07-28 a tool's "input
// required" sampling request reaches the person, named for its call, and
// the reply they type goes back as model "human".
func TestSamplingInTheInputRequiredRound(t *testing.T) {
	var asked []SampleRequest
	e, _ := samplingEngine(t, func(_ context.Context, r SampleRequest) (SampleResponse, error) {
		asked = append(asked, r)
		return SampleResponse{Choice: SampleOnce, Text: "a cat sat"}, nil
	}, nil)
	res, err := e.CallTool(t.Context(), "s", "summarize", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := text(res); got != "human said a cat sat" {
		t.Fatalf("result %q", got)
	}
	if len(asked) != 1 {
		t.Fatalf("asked %d times", len(asked))
	}
	r := asked[0]
	if r.Request != "tools/call summarize" || r.SystemPrompt != "be brief" || r.MaxTokens != 50 ||
		r.FirstLine() != "summarize: the cat sat" || r.Command != "" || r.Allowed {
		t.Fatalf("sampling request %+v", r)
	}
	s := await(t, e, "s", "history", func(s ServerSnapshot) bool { return len(s.Sampling) == 1 })
	if h := s.Sampling[0]; h.Outcome != "replied (you)" || h.Request != "summarize: the cat sat" {
		t.Fatalf("history %+v", h)
	}
}

// TestSamplingNeverIsRemembered: "never for this server" declines, is kept
// in the person's private state (not in the project), and the next request
// is declined without asking.
func TestSamplingNeverIsRemembered(t *testing.T) {
	var mu sync.Mutex
	asked := 0
	e, cfgDir := samplingEngine(t, func(context.Context, SampleRequest) (SampleResponse, error) {
		mu.Lock()
		defer mu.Unlock()
		asked++
		return SampleResponse{Choice: SampleNever}, nil
	}, nil)
	for range 2 {
		if _, err := e.CallTool(t.Context(), "s", "summarize", nil, nil); err == nil || !strings.Contains(err.Error(), "declined") {
			t.Fatalf("declined sampling: err %v, want one saying declined", err)
		}
	}
	if asked != 1 {
		t.Fatalf("asked %d times, want once", asked)
	}
	s := await(t, e, "s", "history", func(s ServerSnapshot) bool { return len(s.Sampling) == 2 })
	if s.SamplingDecision != model.SamplingNever || s.Sampling[1].Outcome != "declined (never for this server)" {
		t.Fatalf("decision %q, history %+v", s.SamplingDecision, s.Sampling)
	}
	files, _ := filepath.Glob(filepath.Join(cfgDir, private.ProjectsDir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("private state files %v", files)
	}
	if b, _ := os.ReadFile(files[0]); !strings.Contains(string(b), `"samplingDecisions"`) {
		t.Fatalf("decision not in the private state:\n%s", b)
	}
	if err := e.SetSampling(t.Context(), "s", model.SamplingAsk); err != nil {
		t.Fatal(err)
	}
	await(t, e, "s", "decision forgotten", func(s ServerSnapshot) bool { return s.SamplingDecision == model.SamplingAsk })
}

// TestSamplingCommandReplies: with "always" and a command, the command
// answers without a prompt; a JSON object it prints is a whole result, and
// a failing command fails the request with its exit status.
func TestSamplingCommandReplies(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil || runtime.GOOS == "windows" {
		t.Skip("the command is a line for /bin/sh")
	}
	cmd := `printf '{"role":"assistant","model":"m1","content":{"type":"text","text":"from json"}}'`
	e, _ := samplingEngine(t, func(_ context.Context, r SampleRequest) (SampleResponse, error) {
		return SampleResponse{Choice: SampleAlways}, nil
	}, func(o *Options) { o.SamplingCommand = cmd })
	res, err := e.CallTool(t.Context(), "s", "summarize", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := text(res); got != "m1 said from json" {
		t.Fatalf("result %q", got)
	}
	e.opts.Sample = func(context.Context, SampleRequest) (SampleResponse, error) {
		return SampleResponse{}, errors.New("asked although always allowed")
	}
	e.opts.SamplingCommand = "echo nope >&2; exit 3"
	_, err = e.CallTool(t.Context(), "s", "summarize", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "exited with status 3: nope") {
		t.Fatalf("failing command: err %v", err)
	}
}

// TestSamplingCommandDeniedByPolicy: under deniedMcpServers [["*"]] a
// remote server (allowed: the rule is about local programs) may still ask
// for sampling, but the sampling command does not run and the request
// fails naming the rule.
func TestSamplingCommandDeniedByPolicy(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sh")
	}
	marker := filepath.Join(t.TempDir(), "ran")
	e, _ := samplingEngine(t, func(_ context.Context, r SampleRequest) (SampleResponse, error) {
		return SampleResponse{Choice: SampleOnce}, nil
	}, func(o *Options) {
		o.SamplingCommand = "touch " + textsafe.QuoteArg(marker) + "; printf hi"
		policy := `{"deniedMcpServers": [{"serverCommand": ["*"]}]}`
		if err := os.WriteFile(filepath.Join(o.Load.ManagedDir, "managed-settings.json"), []byte(policy), 0o600); err != nil {
			t.Fatal(err)
		}
	})
	_, err := e.CallTool(t.Context(), "s", "summarize", nil, nil)
	if err == nil || !strings.Contains(err.Error(), `managed policy forbids it (deniedMcpServers: serverCommand ["*"])`) {
		t.Fatalf("err %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the denied sampling command ran")
	}
}

// TestSamplingCommandRunsWhereItIsDefined: a "sampling": {"command": …} of
// the person's user config runs in the directory of that file, as its
// headersHelper does, never in the directory mcpdeck was started in: a
// working tree there (node_modules, .npmrc, pyproject.toml) must not
// redirect what a command the tree did not define runs ("npx -y llm-cli",
// "uvx llm"), with the person's environment.
func TestSamplingCommandRunsWhereItIsDefined(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sh")
	}
	a := newAskingServer(t)
	var cfgDir string
	e := realEngine(t, nil, nil, func(o *Options) {
		o.Sample = func(context.Context, SampleRequest) (SampleResponse, error) {
			return SampleResponse{Choice: SampleOnce}, nil
		}
		cfgDir = o.Load.ConfigDir
		o.Load.Dynamic = nil
		user := `{"mcpServers": {"s": {"type": "http", "url": "` + a.http.URL + `", "sampling": {"command": "pwd -P"}}}}`
		if err := os.WriteFile(filepath.Join(cfgDir, "settings.json"), []byte(user), 0o600); err != nil {
			t.Fatal(err)
		}
	})
	if err := e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "s", "connected", inState(model.StateConnected))
	res, err := e.CallTool(t.Context(), "s", "summarize", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := filepath.EvalSymlinks(cfgDir)
	if err != nil {
		t.Fatal(err)
	}
	if got := text(res); !strings.HasSuffix(got, " said "+want) {
		t.Fatalf("the sampling command ran elsewhere: result %q, want it to run in %s", got, want)
	}
}
