package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// hostile is in every string of the hostile fixtures: it would write the
// clipboard (OSC 52), erase the line, return the carriage, reverse the text
// (U+202E), send C1 controls, hide characters (tag) and move the cursor up.
// testdata/faultserver -hostile serves the same text.
const hostile = "\x1b]52;c;ZXZpbA==\x07\x1b[2K\r\u202e\u0085\u009b31m\U000E0041\x1b[1Aend"

// assertTerminalSafe fails when out could drive a terminal or hide a
// character: a textsafe.HiddenRune other than newline (another control, DEL,
// ESC, a C1 control, a bidi, invisible or tag character).
func assertTerminalSafe(t *testing.T, what, out string) {
	t.Helper()
	for i, r := range out {
		bad := (textsafe.HiddenRune(r) && r != '\n') || (r == utf8.RuneError && !strings.HasPrefix(out[i:], "\uFFFD"))
		if bad {
			lo, hi := max(0, i-60), min(len(out), i+60)
			t.Errorf("%s: %U at byte %d reaches the terminal: %q", what, r, i, out[lo:hi])
			return
		}
	}
}

// buildFaultServer builds testdata/faultserver into dir.
func buildFaultServer(t testing.TB, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "faultserver")
	if out, err := exec.Command("go", "build", "-o", bin, "../../testdata/faultserver").CombinedOutput(); err != nil {
		t.Fatalf("building faultserver: %v\n%s", err, out)
	}
	return bin
}

// TestCLIOutputIsTerminalSafe runs the listing, calling and config commands,
// in text and --json, against a server (testdata/faultserver -hostile) and a
// config whose every string carries escape sequences, C1 controls, bidi
// overrides and tag characters: none of them reaches stdout or stderr, and
// --json keeps them as \u escapes, so the values survive.
func TestCLIOutputIsTerminalSafe(t *testing.T) {
	e := newCLIEnv(t)
	fs := buildFaultServer(t, t.TempDir())
	evil := "evil" + hostile
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"h": map[string]any{"command": fs, "args": []string{"-hostile"}},
		evil: map[string]any{
			"command": fs, "args": []string{"-hostile", "--x=\r" + hostile, "\x1b[2K"},
			"env": map[string]string{"E" + hostile: "v" + hostile},
		},
		"web": map[string]any{
			"type": "http", "url": "http://127.0.0.1:1/mcp\x1b]52;c;ZXZpbA==\x07" + hostile,
			"headers": map[string]string{"X-A": "b" + hostile},
		},
	}})
	path := filepath.Join(t.TempDir(), "hostile.json")
	if err := os.WriteFile(path, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	uri := "file:///evil" + hostile
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
		{"call", "h", "evil" + hostile},
		{"call", evil, "hostile"},
		{"call", "web", "x"},
		{"read", "h", uri},
		{"read", "h", "file:///missing" + hostile},
		{"prompt", "h", "hostile", `{"arg` + hostile + `":"x"}`},
		{"prompt", "h", "nope" + hostile},
		{"mcp", "list"},
		{"mcp", "list", "--no-connect"},
		{"mcp", "get", evil},
		{"mcp", "get", "web"},
		{"mcp", "get", "h"},
		{"mcp", "get", "nope" + hostile},
	}
	sawStructured := false
	for _, args := range runs {
		for _, js := range []bool{false, true} {
			a := append([]string{"--mcp-config", path}, args...)
			if js {
				a = append(a, "--json")
			}
			r := e.run(a...)
			what := strings.Join(a[2:], " ")
			assertTerminalSafe(t, what+" (stdout)", r.stdout)
			assertTerminalSafe(t, what+" (stderr)", r.stderr)
			if js && args[0] == "call" && args[2] == "hostile_structured" {
				var res struct {
					StructuredContent map[string]string `json:"structuredContent"`
				}
				if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || res.StructuredContent["k"+hostile] != "v "+hostile {
					t.Errorf("--json lost the structured content's value: %v\n%s", err, r)
				}
				sawStructured = true
			}
			if !js && len(args) > 2 && args[2] == "hostile_structured" && !strings.Contains(r.stdout, `\r\u202e\u0085`) {
				t.Errorf("structured content does not show U+202E as an escape:\n%s", r)
			}
		}
	}
	if !sawStructured {
		t.Fatal("the structured call did not run")
	}
	// The test would prove nothing if the hostile server did not answer.
	r := e.run("--mcp-config", path, "tools", "h")
	if r.code != 0 || !strings.Contains(r.stdout, "hostile_structured") || !strings.Contains(r.stdout, "evil") {
		t.Fatalf("the hostile server did not list its tools:\n%s", r)
	}
}
