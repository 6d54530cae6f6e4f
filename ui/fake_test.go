package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// fakeEngine records the actions the TUI asks for and answers calls with
// functions the test sets. Its Updates channel behaves like the engine's:
// one slot, latest wins.
type fakeEngine struct {
	mu      sync.Mutex
	snap    engine.Snapshot
	ch      chan engine.Snapshot
	closed  bool
	actions []string
	errs    map[string]error // verb → error to return
	// outcomes is what a reconnect of a server ends in; connected when unset.
	outcomes map[string]engine.ServerSnapshot

	callTool func(ctx context.Context, server, tool string, args map[string]any, progress func(engine.Progress)) (engine.ToolResult, error)
	lastArgs map[string]any
	readURI  string
	prompt   map[string]string
}

func newFakeEngine(s engine.Snapshot) *fakeEngine {
	return &fakeEngine{snap: s, ch: make(chan engine.Snapshot, 1), errs: map[string]error{}}
}

func (f *fakeEngine) publish(s engine.Snapshot) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.snap = s
	if f.closed {
		return
	}
	select {
	case <-f.ch:
	default:
	}
	f.ch <- s
}

func (f *fakeEngine) record(verb, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.actions = append(f.actions, verb+" "+name)
	return f.errs[verb]
}

func (f *fakeEngine) Actions() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.actions...)
}

func (f *fakeEngine) Updates() <-chan engine.Snapshot { return f.ch }

func (f *fakeEngine) Snapshot() engine.Snapshot {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.snap
}

func (f *fakeEngine) Enable(_ context.Context, n string) error  { return f.record("enable", n) }
func (f *fakeEngine) Disable(_ context.Context, n string) error { return f.record("disable", n) }

// ReconnectOutcome records the reconnect and answers with the outcome the
// test set (outcomes), else the server connected.
func (f *fakeEngine) ReconnectOutcome(_ context.Context, n string) (engine.ServerSnapshot, error) {
	if err := f.record("reconnect", n); err != nil {
		return engine.ServerSnapshot{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if s, ok := f.outcomes[n]; ok {
		return s, nil
	}
	return engine.ServerSnapshot{Name: n, State: model.StateConnected}, nil
}

func (f *fakeEngine) CancelReconnect(_ context.Context, n string) error {
	return f.record("stop retrying", n)
}
func (f *fakeEngine) Approve(_ context.Context, n string) error { return f.record("approve", n) }
func (f *fakeEngine) ApproveShown(_ context.Context, shown map[string]string) error {
	var err error
	for _, n := range slices.Sorted(maps.Keys(shown)) {
		err = errors.Join(err, f.record("approve", n+"@"+shown[n]))
	}
	return err
}
func (f *fakeEngine) Reject(_ context.Context, n string) error { return f.record("reject", n) }
func (f *fakeEngine) AcceptPins(_ context.Context, n string, names []string) error {
	return f.record("accept", fmt.Sprintf("%s %v", n, names))
}

func (f *fakeEngine) Authenticate(_ context.Context, n string) error {
	return f.record("authenticate", n)
}
func (f *fakeEngine) Reload(_ context.Context) error { return f.record("reload", "") }

func (f *fakeEngine) CallTool(ctx context.Context, server, tool string, args map[string]any, progress func(engine.Progress)) (engine.ToolResult, error) {
	f.mu.Lock()
	f.actions = append(f.actions, "call "+server+" "+tool)
	f.lastArgs = args
	fn := f.callTool
	f.mu.Unlock()
	if fn != nil {
		return fn(ctx, server, tool, args, progress)
	}
	b, _ := json.Marshal(args)
	return engine.ToolResult{Content: []engine.Content{{Kind: "text", Text: "called " + tool + " with " + string(b)}}}, nil
}

func (f *fakeEngine) ReadResource(_ context.Context, server, uri string) (engine.ResourceResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.actions = append(f.actions, "read "+server+" "+uri)
	f.readURI = uri
	return engine.ResourceResult{Contents: []engine.Content{{Kind: "text", Text: "contents of " + uri, MIMEType: "text/plain"}}}, nil
}

func (f *fakeEngine) Watch(_ context.Context, server, uri string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.actions = append(f.actions, "watch "+server+" "+uri)
	return nil
}

func (f *fakeEngine) SetToolDenied(_ context.Context, server, tool string, deny bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.actions = append(f.actions, fmt.Sprintf("deny %s %s %v", server, tool, deny))
	return nil
}

func (f *fakeEngine) AllowSandboxHost(_ context.Context, server, host string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.actions = append(f.actions, "allow host "+server+" "+host)
	return nil
}

func (f *fakeEngine) Unwatch(_ context.Context, server, uri string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.actions = append(f.actions, "unwatch "+server+" "+uri)
	return nil
}

func (f *fakeEngine) GetPrompt(_ context.Context, server, name string, args map[string]string) (engine.PromptResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.actions = append(f.actions, "prompt "+server+" "+name)
	f.prompt = args
	return engine.PromptResult{Description: "a prompt", Messages: []engine.Content{{Kind: "text", Role: "user", Text: fmt.Sprintf("summarize %v", args)}}}, nil
}

func (f *fakeEngine) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.closed = true
		close(f.ch)
	}
	return nil
}

var errAuthNotAvailable = errors.New("auth not available yet: the OAuth flow has not landed")

// t0 is the fixed "now" of every test.
var t0 = time.Date(2026, 11, 22, 13, 0, 0, 0, time.UTC)

func intp(i int) *int { return &i }

// fixture returns a snapshot with a server in every state and prompt.
func fixture() engine.Snapshot {
	schema := json.RawMessage(`{"type":"object","properties":{
		"title":{"type":"string","description":"note title"},
		"body":{"type":"string","default":"hello"},
		"priority":{"type":"integer","minimum":1,"maximum":5},
		"pinned":{"type":"boolean"},
		"color":{"type":"string","enum":["red","green","blue"],"default":"green"},
		"tags":{"type":"array","items":{"type":"string"}},
		"meta":{"type":"object"}},
		"required":["title","priority"]}`)
	notes := engine.ServerSnapshot{
		Name: "notes", Scope: model.ScopeUser, Source: "/home/me/.config/mcpdeck/settings.json",
		Transport: model.TransportSDK, Target: "built-in notes", State: model.StateConnected, Enabled: true, Runnable: true,
		Config:     model.ServerConfig{Type: model.TransportSDK, Name: "notes"},
		Policy:     model.PolicyDecision{Allowed: true},
		ServerInfo: engine.Implementation{Name: "notes", Version: "1.0.0"}, ProtocolVersion: "2025-11-25",
		Instructions: "Use add_note to store notes and list_notes to read them back.",
		Tools: []engine.Tool{
			{Name: "add_note", ExposedName: "mcp__notes__add_note", Description: "Add a note", InputSchema: schema, Destructive: true},
			{Name: "list_notes", ExposedName: "mcp__notes__list_notes", Title: "List notes", Description: "List all notes", ReadOnly: true, InputSchema: json.RawMessage(`{"type":"object"}`)},
			{Name: "search", ExposedName: "mcp__notes__search", Description: "Search the web for notes", OpenWorld: true, InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)},
		},
		Resources: []engine.Resource{{URI: "notes://all", Name: "all notes", MIMEType: "text/plain"}},
		Templates: []engine.ResourceTemplate{{URITemplate: "notes://{id}", Name: "note by id"}},
		Prompts: []engine.Prompt{{Name: "summarize", Description: "Summarize notes", Arguments: []engine.PromptArgument{
			{Name: "topic", Required: true}, {Name: "style"},
		}}},
		StderrTail: []string{"notes: started", "notes: ready"},
		History: []engine.Transition{
			{From: model.StatePending, To: model.StateConnected, At: t0.Add(-time.Minute), Reason: "initialized"},
		},
	}
	flaky := engine.ServerSnapshot{
		Name: "flaky", Scope: model.ScopeLocal, Source: "/work/.mcpdeck/settings.local.json", Transport: model.TransportStdio,
		Target: "mcpdeck demo-server flaky", State: model.StatePending, Enabled: true, Runnable: true, Attempt: 2, MaxAttempts: 5,
		NextRetry: t0.Add(7 * time.Second), Policy: model.PolicyDecision{Allowed: true}, ExitCode: intp(1),
		Error:  "the server exited (code 1)",
		Reason: model.Reason{Kind: model.ReasonRetryScheduled, Attempt: 2, MaxAttempts: 5, At: t0.Add(7 * time.Second), Error: "the server exited (code 1)"},
		History: []engine.Transition{
			{From: model.StatePending, To: model.StateConnected, At: t0.Add(-time.Minute), Reason: "connected"},
			{
				From: model.StateConnected, To: model.StatePending, At: t0.Add(-3 * time.Second), Reason: "reconnect attempt 1/5 in 1s",
				Cause: model.Reason{Kind: model.ReasonRetryScheduled, Attempt: 1, MaxAttempts: 5, At: t0.Add(-2 * time.Second), Error: "the server exited (code 1)"},
			},
			{
				From: model.StatePending, To: model.StatePending, At: t0.Add(-time.Second), Reason: "reconnect attempt 2/5 in 8s",
				Cause: model.Reason{Kind: model.ReasonRetryScheduled, Attempt: 2, MaxAttempts: 5, At: t0.Add(7 * time.Second), Error: "the server exited (code 1)"},
			},
		},
	}
	brokenProblem := model.Problem{File: "/home/me/.config/mcpdeck/settings.json", Line: 4, Col: 7, Server: "broken", Field: "env.TOKEN", Message: "${TOKEN} is not set"}
	broken := engine.ServerSnapshot{
		Name: "broken", Scope: model.ScopeUser, Source: "/home/me/.config/mcpdeck/settings.json", Transport: model.TransportStdio,
		Target: "nosuchcmd --flag", State: model.StateFailed, Enabled: true, Policy: model.PolicyDecision{Allowed: true},
		Error: "command nosuchcmd not found on PATH", ErrorDetail: "exec: \"nosuchcmd\": executable file not found in $PATH",
		ErrorClass: "terminal", ExitCode: intp(127),
		Problems: []model.Problem{brokenProblem},
		Reason:   model.Reason{Kind: model.ReasonConfigProblem, Problem: &brokenProblem, Error: brokenProblem.Error()},
		Blockers: []model.Reason{{Kind: model.ReasonConfigProblem, Problem: &brokenProblem}, {Kind: model.ReasonCommandNotFound, Command: "nosuchcmd"}},
	}
	remote := engine.ServerSnapshot{
		Name: "remote-api", Scope: model.ScopeUser, Source: "/home/me/.config/mcpdeck/settings.json", Transport: model.TransportHTTP,
		Target: "https://api.example.com/mcp", State: model.StateNeedsAuth, Enabled: true, Runnable: true, Policy: model.PolicyDecision{Allowed: true},
		Error:  "the server needs you to log in (HTTP 401)",
		Reason: model.Reason{Kind: model.ReasonAuthNeeded, Error: "the server needs you to log in (HTTP 401)"},
	}
	off := engine.ServerSnapshot{
		Name: "off", Scope: model.ScopeUser, Source: "/home/me/.config/mcpdeck/settings.json", Transport: model.TransportStdio,
		Target: "off-server", State: model.StateDisabled, Enabled: false, Policy: model.PolicyDecision{Allowed: true},
		Reason: model.Reason{Kind: model.ReasonDisabledByYou}, Blockers: []model.Reason{{Kind: model.ReasonDisabledByYou}},
	}
	blocked := engine.ServerSnapshot{
		Name: "blocked", Scope: model.ScopeDynamic, Source: "--mcp-config", Transport: model.TransportStdio,
		Target: "evil-tool", State: model.StateDisabled, Enabled: true,
		Policy:   model.PolicyDecision{Allowed: false, Rule: `deniedMcpServers: {"serverName":"blocked"}`},
		Reason:   model.Reason{Kind: model.ReasonBlockedByPolicy, Rule: `deniedMcpServers: {"serverName":"blocked"}`},
		Blockers: []model.Reason{{Kind: model.ReasonBlockedByPolicy, Rule: `deniedMcpServers: {"serverName":"blocked"}`}},
	}
	changed := engine.ServerSnapshot{
		Name: "repo-tools", Scope: model.ScopeProject, Source: "/work/.mcp.json", Transport: model.TransportStdio,
		Target: "npx -y repo-tools --port 9000", Hash: "h2", State: model.StateDisabled, Enabled: true,
		Written: &model.ServerConfig{Command: "npx", Args: []string{"-y", "repo-tools", "--port", "9000"}},
		Policy:  model.PolicyDecision{Allowed: true},
		Approval: model.Approval{
			Status: model.ApprovalChanged, ApprovedHash: "h1",
			Diff: "  command: npx\n- args: [-y repo-tools]\n+ args: [-y repo-tools --port 9000]",
		},
		Reason:   model.Reason{Kind: model.ReasonAwaitingApproval, Changed: true},
		Blockers: []model.Reason{{Kind: model.ReasonAwaitingApproval, Changed: true}},
	}
	fresh := engine.ServerSnapshot{
		Name: "fresh", Scope: model.ScopeProject, Source: "/work/.mcp.json", Transport: model.TransportStdio,
		Target: "python -m fresh_server", Hash: "h3", State: model.StatePending, Enabled: true,
		Written: &model.ServerConfig{Command: "python", Args: []string{"-m", "fresh_server"}},
		Policy:  model.PolicyDecision{Allowed: true}, Approval: model.Approval{Status: model.ApprovalPending},
		Reason: model.Reason{Kind: model.ReasonAwaitingApproval}, Blockers: []model.Reason{{Kind: model.ReasonAwaitingApproval}},
	}
	return engine.Snapshot{Seq: 1, At: t0, Servers: []engine.ServerSnapshot{blocked, flaky, changed, fresh, broken, notes, off, remote}}
}

// Complete suggests departments, then names in the chosen one (like
// server-everything's completable-prompt).
func (f *fakeEngine) Complete(_ context.Context, server string, ref engine.CompletionRef, arg, value string, others map[string]string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.actions = append(f.actions, fmt.Sprintf("complete %s %s %s %v", server, ref.Prompt+ref.Template, arg, others))
	switch {
	case arg == "topic":
		return []string{"groceries", "garden", "work"}, nil
	case arg == "style" && others["topic"] == "garden":
		return []string{"haiku", "list"}, nil
	}
	return nil, nil
}

// SetLogLevel records the level asked for.
func (f *fakeEngine) SetLogLevel(_ context.Context, server, level string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.actions = append(f.actions, "log level "+server+" "+level)
	return nil
}
