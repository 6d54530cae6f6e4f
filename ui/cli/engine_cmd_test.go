package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// engServers is an --mcp-config value with demo servers served over stdio
// by the mcpdeck binary itself (`mcpdeck demo-server NAME`).
func engServers(t *testing.T, extra map[string]any) string {
	t.Helper()
	servers := map[string]any{
		"calc":   map[string]any{"command": binary, "args": []string{"demo-server", "calculator"}},
		"notes":  map[string]any{"command": binary, "args": []string{"demo-server", "notes"}},
		"survey": map[string]any{"command": binary, "args": []string{"demo-server", "survey"}},
	}
	for k, v := range extra {
		servers[k] = v
	}
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// closedPort returns a local port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

func TestEngMCPListConnectsAndReports(t *testing.T) {
	e := newCLIEnv(t)
	cfg := engServers(t, map[string]any{
		"down": map[string]any{"type": "http", "url": fmt.Sprintf("http://127.0.0.1:%d/mcp", closedPort(t))},
		"off":  map[string]any{"command": binary, "args": []string{"demo-server", "weather"}},
	})
	e.ok("--mcp-config", cfg, "mcp", "disable", "off")
	r := e.run("--mcp-config", cfg, "mcp", "list")
	if r.code != 1 {
		t.Fatalf("want exit 1 (a server failed), got %s", r)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 5 {
		t.Fatalf("want one line per server, got %s", r)
	}
	want := map[string]string{
		"calc":   "✓ calc: ",
		"notes":  "✓ notes: ",
		"survey": "✓ survey: ",
		"down":   "✗ down: ",
		"off":    "○ off: ",
	}
	for name, prefix := range want {
		found := false
		for _, l := range lines {
			if strings.HasPrefix(l, prefix) {
				found = true
			}
		}
		if !found {
			t.Errorf("no line for %s starting %q in:\n%s", name, prefix, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "refused") {
		t.Errorf("the failed server's line should say why:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "calc: ") || !strings.Contains(r.stdout, "2 tools") {
		t.Errorf("connected line should count tools:\n%s", r.stdout)
	}

	// --json: one object per server with its state
	r = e.run("--mcp-config", cfg, "--json", "mcp", "list")
	var doc struct {
		Servers []struct {
			Name  string `json:"name"`
			State string `json:"state"`
			Error string `json:"error"`
		} `json:"servers"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("mcp list --json: %v\n%s", err, r)
	}
	states := map[string]string{}
	for _, s := range doc.Servers {
		states[s.Name] = s.State
	}
	if states["calc"] != "connected" || states["down"] != "failed" || states["off"] != "disabled" || len(states) != 5 {
		t.Errorf("states %v", states)
	}

	// without the failing server, exit 0
	e.ok("--mcp-config", engServers(t, nil), "mcp", "list")
	e.ok("--mcp-config", engServers(t, nil), "mcp", "reconnect", "calc")
	e.ok("--mcp-config", engServers(t, nil), "mcp", "reconnect", "all")
}

func TestEngCallConnectsOnlyTheServerItNeeds(t *testing.T) {
	e := newCLIEnv(t)
	marker := filepath.Join(t.TempDir(), "started")
	cfg := engServers(t, map[string]any{
		// would leave a marker if it were ever started
		"spy": map[string]any{"command": "sh", "args": []string{"-c", "touch " + textsafe.QuoteArg(marker) + "; exec " + textsafe.QuoteArg(binary) + " demo-server notes"}},
	})
	r := e.ok("--mcp-config", cfg, "call", "calc", "calculate", `{"op":"multiply","a":6,"b":7}`)
	if strings.TrimSpace(r.stdout) != "42" {
		t.Errorf("calculate 6*7: %s", r)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("call calc started the spy server too")
	}
	// the global flags may also come after the subcommand
	r = e.ok("call", "calc", "calculate", `{"op":"add","a":1,"b":2}`, "--json", "--mcp-config", cfg)
	var res struct {
		Content []struct {
			Type string `json:"type"` // MCP's own field name
			Text string `json:"text"`
		} `json:"content"`
		Structured map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("call --json: %v\n%s", err, r)
	}
	if res.Structured["result"] != 3.0 || len(res.Content) != 1 || res.Content[0].Text != "3" || res.Content[0].Type != "text" {
		t.Errorf("call --json: %+v", res)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("call calc started the spy server too")
	}
}

func TestEngCallErrors(t *testing.T) {
	e := newCLIEnv(t)
	cfg := engServers(t, map[string]any{
		"down": map[string]any{"type": "http", "url": fmt.Sprintf("http://127.0.0.1:%d/mcp", closedPort(t))},
	})
	r := e.fails(1, "--mcp-config", cfg, "call", "nope", "x", "{}")
	if !strings.Contains(r.stderr, `no such server "nope"`) || !strings.Contains(r.stderr, "calc") {
		t.Errorf("unknown server: %s", r)
	}
	r = e.fails(2, "--mcp-config", cfg, "call", "calc", "calculate", `[1,2]`)
	if !strings.Contains(r.stderr, "JSON object") {
		t.Errorf("bad JSON: %s", r)
	}
	e.fails(2, "--mcp-config", cfg, "call", "calc")
	r = e.fails(1, "--mcp-config", cfg, "call", "down", "x", "{}")
	if !strings.Contains(r.stderr, "down failed to connect") {
		t.Errorf("failed server: %s", r)
	}
	r = e.fails(1, "--mcp-config", cfg, "call", "calc", "calculate", `{"a":"six","b":7}`)
	if !strings.Contains(r.stderr, "calculate") || !strings.Contains(r.stderr, "a") {
		t.Errorf("schema violation: %s", r)
	}
	r = e.run("--mcp-config", cfg, "call", "calc", "calculate", `{"op":"divide","a":1,"b":0}`)
	if r.code != 1 || !strings.Contains(r.stderr, "division by zero") {
		t.Errorf("tool error: %s", r)
	}
	// A request the server refuses: one sentence naming it once, without
	// mcp-go's wrapping.
	r = e.fails(1, "--mcp-config", cfg, "read", "notes", "note://no-such-note")
	if strings.Count(r.stderr, "notes") != 1 || strings.Contains(r.stderr, "transport error") || !strings.Contains(r.stderr, "reading note://no-such-note on notes: ") {
		t.Errorf("refused read: %s", r)
	}
}

func TestEngElicitation(t *testing.T) {
	e := newCLIEnv(t)
	cfg := engServers(t, nil)
	// headless without --elicit: a clear error, exit 1
	r := e.run("--mcp-config", cfg, "call", "survey", "feedback")
	if r.code != 1 || !strings.Contains(r.stderr, "elicitation needs the TUI or --elicit") ||
		!strings.Contains(r.stderr, "How is the demo going?, for tools/call feedback") {
		t.Errorf("headless elicitation: %s", r)
	}
	r = e.ok("--mcp-config", cfg, "--elicit", "decline", "call", "survey", "feedback")
	if !strings.Contains(r.stdout, "you chose to decline") {
		t.Errorf("--elicit decline: %s", r)
	}
	// "name" is required and has no default: accept-defaults declines,
	// says which field on stderr, and fails: the person asked to accept
	r = e.fails(1, "--mcp-config", cfg, "--elicit", "accept-defaults", "call", "survey", "feedback")
	if !strings.Contains(r.stdout, "you chose to decline") ||
		!strings.Contains(r.stderr, "mcpdeck: declined (for tools/call feedback): server survey asks for name, which have no default") {
		t.Errorf("--elicit accept-defaults without a default for a required field: %s", r)
	}
	e.fails(2, "--mcp-config", cfg, "--elicit", "maybe", "call", "survey", "feedback")
}

func TestEngBrowse(t *testing.T) {
	e := newCLIEnv(t)
	cfg := engServers(t, nil)
	r := e.ok("--mcp-config", cfg, "tools", "calc")
	if !strings.HasPrefix(r.stdout, "calc (2 tools)\n") || !strings.Contains(r.stdout, "calculate [read-only") {
		t.Errorf("tools calc: %s", r)
	}
	r = e.ok("--mcp-config", cfg, "tools")
	for _, s := range []string{"calc (", "notes (", "survey ("} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("tools: no %q in %s", s, r)
		}
	}
	r = e.ok("--mcp-config", cfg, "--json", "tools", "notes")
	var doc []struct {
		Server string `json:"server"`
		State  string `json:"state"`
		Items  []struct {
			Name        string `json:"name"`
			ExposedName string `json:"exposedName"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("tools --json: %v\n%s", err, r)
	}
	if len(doc) != 1 || doc[0].Server != "notes" || len(doc[0].Items) != 3 || doc[0].Items[0].ExposedName == "" {
		t.Errorf("tools --json: %+v", doc)
	}
	r = e.ok("--mcp-config", cfg, "resources", "notes")
	if !strings.Contains(r.stdout, "notes://all") || !strings.Contains(r.stdout, "notes://{title} (template)") {
		t.Errorf("resources: %s", r)
	}
	r = e.ok("--mcp-config", cfg, "prompts", "calc")
	if !strings.Contains(r.stdout, "explain expression — Explain a calculation") {
		t.Errorf("prompts: %s", r)
	}
	e.ok("--mcp-config", cfg, "call", "notes", "add_note", `{"title":"milk","body":"buy oat milk"}`)
	r = e.ok("--mcp-config", cfg, "read", "notes", "notes://all")
	if r.stdout == "" {
		t.Errorf("read: %s", r)
	}
	r = e.ok("--mcp-config", cfg, "prompt", "calc", "explain", `{"expression":"6*7"}`)
	if !strings.Contains(r.stdout, "user: Explain step by step: 6*7") {
		t.Errorf("prompt: %s", r)
	}
	r = e.ok("--mcp-config", cfg, "--json", "prompt", "calc", "explain", `{"expression":"1+1"}`)
	if !strings.Contains(r.stdout, `"messages"`) {
		t.Errorf("prompt --json: %s", r)
	}
}

func TestEngProgressAndCtrlC(t *testing.T) {
	e := newCLIEnv(t)
	cfg := engServers(t, nil)
	r := e.ok("--mcp-config", cfg, "call", "calc", "slow_count", `{"n":2}`)
	if !strings.Contains(r.stderr, "progress: 1/2 counted 1") || strings.TrimSpace(r.stdout) != "counted to 2" {
		t.Errorf("progress: %s", r)
	}

	// Ctrl-C while a call runs: the call is cancelled, the server stopped,
	// and mcpdeck exits 130 (128 + SIGINT) at once with a one-line message.
	cmd := e.command("--mcp-config", cfg, "call", "calc", "slow_count", `{"n":100}`)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	var got strings.Builder
	for !strings.Contains(got.String(), "progress: 1/100") { // the call is running
		n, err := stderr.Read(buf)
		if err != nil {
			t.Fatalf("no progress before the stream ended: %v\n%s", err, got.String())
		}
		got.Write(buf[:n])
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for {
		n, err := stderr.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			break
		}
	}
	err = cmd.Wait()
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("mcpdeck took %v to stop after Ctrl-C", took)
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Errorf("want exit 130 after Ctrl-C, got %v", err)
	}
	if !strings.Contains(got.String(), "cancelled") {
		t.Errorf("stderr after Ctrl-C: %s", got.String())
	}
}
