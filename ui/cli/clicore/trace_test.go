package clicore

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestTraceWritesEveryFrame: `--trace FILE` before or after the command
// writes every frame of the session as one JSON object a line (time,
// server, direction, kind, method, id, duration_ms for answers, size,
// body) to a 0600 file; the server's secret, echoed in a result, is
// masked; completing such a command line writes nothing; a symbolic link
// at FILE is refused and its target left alone.
func TestTraceWritesEveryFrame(t *testing.T) {
	e := clitest.NewEnv(t)
	fault := clitest.BuildFaultServer(t, t.TempDir())
	const secret = "sk-trace-91c3e7d2a0"
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"s": map[string]any{"command": fault, "env": map[string]string{"API_KEY": secret}},
	}})
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	e.OK("--mcp-config", string(cfg), "call", "s", "env", `{"name":"API_KEY"}`, "--trace", trace)
	if st, err := os.Stat(trace); err != nil || (runtime.GOOS != "windows" && st.Mode().Perm() != 0o600) {
		t.Fatalf("trace file: %v %v", st, err)
	}
	raw, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), secret) {
		t.Fatalf("the trace holds the secret:\n%s", raw)
	}
	var call, answer map[string]any
	var lines int
	for l := range strings.SplitSeq(strings.TrimSpace(string(raw)), "\n") {
		lines++
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", lines, err, l)
		}
		for _, k := range []string{"time", "server", "direction", "kind", "size", "body"} {
			if _, ok := m[k]; !ok {
				t.Errorf("line %d has no %q: %s", lines, k, l)
			}
		}
		if m["method"] == "tools/call" && m["direction"] == "sent" {
			call = m
		}
		if m["method"] == "tools/call" && m["direction"] == "received" {
			answer = m
		}
	}
	if call == nil || answer == nil || call["id"] != answer["id"] || call["server"] != "s" || call["kind"] != "request" {
		t.Fatalf("no tools/call request and its answer with the same id:\n%s", raw)
	}
	if d, ok := answer["duration_ms"].(float64); !ok || d <= 0 || !strings.Contains(answer["body"].(string), `"text":"****"`) {
		t.Errorf("the answer has no duration or its secret is not masked: %v", answer)
	}
	if lines < 5 { // discover, initialize (both ways), initialized, the call (both ways)
		t.Errorf("only %d frames traced:\n%s", lines, raw)
	}
	// Completing a command line that holds --trace connects the server to
	// learn its tools, but writes no trace: that is the command's, later.
	completing := filepath.Join(t.TempDir(), "not-yet.jsonl")
	if r := e.Run("__complete", "--trace", completing, "--mcp-config", string(cfg), "call", "s", ""); !strings.Contains(r.Stdout, "echo") {
		t.Fatalf("completion did not connect the server: %s", r)
	}
	if _, err := os.Stat(completing); err == nil {
		t.Error("completion wrote the trace file")
	}

	clitest.RefusesLink(t, e, "--trace", clitest.LinkArg, "--mcp-config", string(cfg), "call", "s", "echo", `{"text":"x"}`)
}
