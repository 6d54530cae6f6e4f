package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestCLIOutputIsTerminalSafe runs the listing, calling and config commands,
// in text and --json, against a server (testdata/faultserver -hostile) and a
// config whose every string carries escape sequences, C1 controls, bidi
// overrides and tag characters: none of them reaches stdout or stderr, and
// --json keeps them as \u escapes, so the values survive.
func TestCLIOutputIsTerminalSafe(t *testing.T) {
	e := clitest.NewEnv(t)
	fs := clitest.BuildFaultServer(t, t.TempDir())
	evil := "evil" + clitest.Hostile
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"h": map[string]any{"command": fs, "args": []string{"-hostile"}},
		evil: map[string]any{
			"command": fs, "args": []string{"-hostile", "--x=\r" + clitest.Hostile, "\x1b[2K"},
			"env": map[string]string{"E" + clitest.Hostile: "v" + clitest.Hostile},
		},
		"web": map[string]any{
			"type": "http", "url": "http://127.0.0.1:1/mcp\x1b]52;c;ZXZpbA==\x07" + clitest.Hostile,
			"headers": map[string]string{"X-A": "b" + clitest.Hostile},
		},
	}})
	path := filepath.Join(t.TempDir(), "hostile.json")
	if err := os.WriteFile(path, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	uri := "file:///evil" + clitest.Hostile
	runs := [][]string{
		{"tools"},
		{"tools", "h"},
		{"resources"},
		{"resources", "h"},
		{"prompts"},
		{"prompts", "h"},
		{"call", "h", "hostile"},
		{"call", "h", "hostile_structured"},
		{"call", "h", "hostile_error"},
		{"call", "h", "evil" + clitest.Hostile},
		{"call", evil, "hostile"},
		{"call", "web", "x"},
		{"read", "h", uri},
		{"read", "h", "file:///missing" + clitest.Hostile},
		{"prompt", "h", "hostile", `{"arg` + clitest.Hostile + `":"x"}`},
		{"prompt", "h", "nope" + clitest.Hostile},
		{"mcp", "list"},
		{"mcp", "list", "--no-connect"},
		{"mcp", "get", evil},
		{"mcp", "get", "web"},
		{"mcp", "get", "h"},
		{"mcp", "get", "nope" + clitest.Hostile},
		{"scan"},
		{"scan", "h", "--sarif"},
		{"mcp", "review", "h"},
	}
	sawStructured := false
	for _, args := range runs {
		for _, js := range []bool{false, true} {
			a := append([]string{"--mcp-config", path}, args...)
			if js {
				a = append(a, "--json")
			}
			r := e.Run(a...)
			what := strings.Join(a[2:], " ")
			clitest.AssertTerminalSafe(t, what+" (stdout)", r.Stdout)
			clitest.AssertTerminalSafe(t, what+" (stderr)", r.Stderr)
			if js && args[0] == "call" && args[2] == "hostile_structured" {
				var res struct {
					StructuredContent map[string]string `json:"structuredContent"`
				}
				if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil || res.StructuredContent["k"+clitest.Hostile] != "v "+clitest.Hostile {
					t.Errorf("--json lost the structured content's value: %v\n%s", err, r)
				}
				sawStructured = true
			}
			if !js && len(args) > 2 && args[2] == "hostile_structured" && !strings.Contains(r.Stdout, `\r\u202e\u0085`) {
				t.Errorf("structured content does not show U+202E as an escape:\n%s", r)
			}
		}
	}
	if !sawStructured {
		t.Fatal("the structured call did not run")
	}
	// The test would prove nothing if the hostile server did not answer.
	r := e.Run("--mcp-config", path, "tools", "h")
	if r.Code != 0 || !strings.Contains(r.Stdout, "hostile_structured") || !strings.Contains(r.Stdout, "evil") {
		t.Fatalf("the hostile server did not list its tools:\n%s", r)
	}
}
