package engcmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

func TestEngCallConnectsOnlyTheServerItNeeds(t *testing.T) {
	e := clitest.NewEnv(t)
	marker := filepath.Join(t.TempDir(), "started")
	cfg := clitest.EngServers(t, map[string]any{
		// would leave a marker if it were ever started
		"spy": map[string]any{"command": "sh", "args": []string{"-c", "touch " + textsafe.QuoteArg(marker) + "; exec " + textsafe.QuoteArg(clitest.Binary) + " demo-server notes"}},
	})
	r := e.OK("--mcp-config", cfg, "call", "calc", "calculate", `{"op":"multiply","a":6,"b":7}`)
	if strings.TrimSpace(r.Stdout) != "42" {
		t.Errorf("calculate 6*7: %s", r)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("call calc started the spy server too")
	}
	// the global flags may also come after the subcommand
	r = e.OK("call", "calc", "calculate", `{"op":"add","a":1,"b":2}`, "--json", "--mcp-config", cfg)
	var res struct {
		Content []struct {
			Type string `json:"type"` // MCP's own field name
			Text string `json:"text"`
		} `json:"content"`
		Structured map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
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
	e := clitest.NewEnv(t)
	cfg := clitest.EngServers(t, map[string]any{
		"down": map[string]any{"type": "http", "url": fmt.Sprintf("http://127.0.0.1:%d/mcp", clitest.ClosedPort(t))},
	})
	r := e.Fails(1, "--mcp-config", cfg, "call", "nope", "x", "{}")
	if !strings.Contains(r.Stderr, `no server named "nope"`) || !strings.Contains(r.Stderr, "calc") {
		t.Errorf("unknown server: %s", r)
	}
	r = e.Fails(2, "--mcp-config", cfg, "call", "calc", "calculate", `[1,2]`)
	if !strings.Contains(r.Stderr, "JSON object") {
		t.Errorf("bad JSON: %s", r)
	}
	e.Fails(2, "--mcp-config", cfg, "call", "calc")
	r = e.Fails(1, "--mcp-config", cfg, "call", "down", "x", "{}")
	if !strings.Contains(r.Stderr, "down failed to connect") {
		t.Errorf("failed server: %s", r)
	}
	r = e.Fails(1, "--mcp-config", cfg, "call", "calc", "calculate", `{"a":"six","b":7}`)
	if !strings.Contains(r.Stderr, "calculate") || !strings.Contains(r.Stderr, "a") {
		t.Errorf("schema violation: %s", r)
	}
	r = e.Run("--mcp-config", cfg, "call", "calc", "calculate", `{"op":"divide","a":1,"b":0}`)
	if r.Code != 1 || !strings.Contains(r.Stderr, "division by zero") {
		t.Errorf("tool error: %s", r)
	}
	// A request the server refuses: one sentence naming it once, without
	// mcp-go's wrapping.
	r = e.Fails(1, "--mcp-config", cfg, "read", "notes", "note://no-such-note")
	if strings.Count(r.Stderr, "notes") != 1 || strings.Contains(r.Stderr, "transport error") || !strings.Contains(r.Stderr, "reading note://no-such-note on notes: ") {
		t.Errorf("refused read: %s", r)
	}
}

func TestEngElicitation(t *testing.T) {
	e := clitest.NewEnv(t)
	cfg := clitest.EngServers(t, nil)
	// headless without --elicit: a clear error, exit 1
	r := e.Run("--mcp-config", cfg, "call", "survey", "feedback")
	if r.Code != 1 || !strings.Contains(r.Stderr, "elicitation needs a terminal, the TUI or --elicit") ||
		!strings.Contains(r.Stderr, "How is the demo going?, for tools/call feedback") {
		t.Errorf("headless elicitation: %s", r)
	}
	r = e.OK("--mcp-config", cfg, "--elicit", "decline", "call", "survey", "feedback")
	if !strings.Contains(r.Stdout, "you chose to decline") {
		t.Errorf("--elicit decline: %s", r)
	}
	// "name" is required and has no default: accept-defaults declines,
	// says which field on stderr, and fails: the person asked to accept
	r = e.Fails(1, "--mcp-config", cfg, "--elicit", "accept-defaults", "call", "survey", "feedback")
	if !strings.Contains(r.Stdout, "you chose to decline") ||
		!strings.Contains(r.Stderr, "mcpdeck: declined (for tools/call feedback): server survey asks for name, which has no default") {
		t.Errorf("--elicit accept-defaults without a default for a required field: %s", r)
	}
	e.Fails(2, "--mcp-config", cfg, "--elicit", "maybe", "call", "survey", "feedback")
}

func TestEngBrowse(t *testing.T) {
	e := clitest.NewEnv(t)
	cfg := clitest.EngServers(t, nil)
	r := e.OK("--mcp-config", cfg, "tools", "calc")
	if !strings.HasPrefix(r.Stdout, "calc (2 tools)\n") || !strings.Contains(r.Stdout, "calculate [read-only") {
		t.Errorf("tools calc: %s", r)
	}
	r = e.OK("--mcp-config", cfg, "tools")
	for _, s := range []string{"calc (", "notes (", "survey ("} {
		if !strings.Contains(r.Stdout, s) {
			t.Errorf("tools: no %q in %s", s, r)
		}
	}
	r = e.OK("--mcp-config", cfg, "--json", "tools", "notes")
	var doc []struct {
		Server string `json:"server"`
		State  string `json:"state"`
		Items  []struct {
			Name        string `json:"name"`
			ExposedName string `json:"exposedName"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil {
		t.Fatalf("tools --json: %v\n%s", err, r)
	}
	if len(doc) != 1 || doc[0].Server != "notes" || len(doc[0].Items) != 3 || doc[0].Items[0].ExposedName == "" {
		t.Errorf("tools --json: %+v", doc)
	}
	r = e.OK("--mcp-config", cfg, "resources", "notes")
	if !strings.Contains(r.Stdout, "notes://all") || !strings.Contains(r.Stdout, "notes://{title} (template)") {
		t.Errorf("resources: %s", r)
	}
	r = e.OK("--mcp-config", cfg, "prompts", "calc")
	if !strings.Contains(r.Stdout, "explain expression — Explain a calculation") {
		t.Errorf("prompts: %s", r)
	}
	e.OK("--mcp-config", cfg, "call", "notes", "add_note", `{"title":"milk","body":"buy oat milk"}`)
	r = e.OK("--mcp-config", cfg, "read", "notes", "notes://all")
	if r.Stdout == "" {
		t.Errorf("read: %s", r)
	}
	r = e.OK("--mcp-config", cfg, "prompt", "calc", "explain", `{"expression":"6*7"}`)
	if !strings.Contains(r.Stdout, "user: Explain step by step: 6*7") {
		t.Errorf("prompt: %s", r)
	}
	r = e.OK("--mcp-config", cfg, "--json", "prompt", "calc", "explain", `{"expression":"1+1"}`)
	if !strings.Contains(r.Stdout, `"messages"`) {
		t.Errorf("prompt --json: %s", r)
	}
}

func TestEngProgressAndCtrlC(t *testing.T) {
	e := clitest.NewEnv(t)
	cfg := clitest.EngServers(t, nil)
	r := e.OK("--mcp-config", cfg, "call", "calc", "slow_count", `{"n":2}`)
	if !strings.Contains(r.Stderr, "progress: 1/2 counted 1") || strings.TrimSpace(r.Stdout) != "counted to 2" {
		t.Errorf("progress: %s", r)
	}

	// Ctrl-C while a call runs: the call is cancelled, the server stopped,
	// and mcpdeck exits 130 (128 + SIGINT) at once with a one-line message.
	cmd := e.Command("--mcp-config", cfg, "call", "calc", "slow_count", `{"n":100}`)
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
