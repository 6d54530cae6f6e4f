package completion

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// completions runs cobra's hidden __complete command and returns the
// candidates (descriptions dropped).
func completions(e *clitest.Env, args ...string) []string {
	e.T.Helper()
	r := e.Run(append([]string{"__complete"}, args...)...)
	if r.Code != 0 {
		e.T.Fatalf("__complete %v: %s", args, r)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
		if l == "" || strings.HasPrefix(l, ":") {
			continue
		}
		name, _, _ := strings.Cut(l, "\t")
		out = append(out, name)
	}
	return out
}

func TestCompletionOfServersToolsPromptsAndFlags(t *testing.T) {
	e := clitest.NewEnv(t)
	starts := filepath.Join(t.TempDir(), "starts")
	// calc counts its starts, so the test sees the cache spare a connection
	counted := "echo x >> '" + starts + "'; exec '" + clitest.Binary + "' demo-server calculator"
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"calc":  map[string]any{"command": "sh", "args": []string{"-c", counted}},
		"notes": map[string]any{"command": clitest.Binary, "args": []string{"demo-server", "notes"}},
	}})
	c := string(cfg)
	if got := completions(e, "--mcp-config", c, "mcp", "get", ""); strings.Join(got, " ") != "calc notes" {
		t.Errorf("mcp get: %v", got)
	}
	if got := completions(e, "--mcp-config", c, "mcp", "enable", ""); strings.Join(got, " ") != "calc notes all" {
		t.Errorf("mcp enable: %v", got)
	}
	for range 2 {
		if got := completions(e, "--mcp-config", c, "call", "calc", ""); strings.Join(got, " ") != "calculate slow_count" {
			t.Errorf("call calc: %v", got)
		}
	}
	if b, _ := os.ReadFile(starts); strings.Count(string(b), "x") != 1 {
		t.Errorf("calc started %d times for two completions, want 1 (the second from the cache)", strings.Count(string(b), "x"))
	}
	if got := completions(e, "--mcp-config", c, "prompt", "calc", ""); strings.Join(got, " ") != "explain" {
		t.Errorf("prompt calc: %v", got)
	}
	if got := completions(e, "--mcp-config", c, "read", "notes", ""); len(got) == 0 || got[0] != "notes://all" {
		t.Errorf("read notes: %v", got)
	}
	// after the tool, its argument names as key= (the value follows at
	// once), those already given left out
	if got := completions(e, "--mcp-config", c, "call", "calc", "calculate", ""); strings.Join(got, " ") != "a= b= op=" {
		t.Errorf("call calc calculate: %v, want its arguments", got)
	}
	if got := completions(e, "--mcp-config", c, "call", "calc", "calculate", "a=1", ""); strings.Join(got, " ") != "b= op=" {
		t.Errorf("call calc calculate a=1: %v", got)
	}
	if got := completions(e, "--mcp-config", c, "mcp", "deny", "calc", ""); strings.Join(got, " ") != "calculate slow_count" {
		t.Errorf("mcp deny calc: %v", got)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "add", "-s", ""}, "local project user"},
		{[]string{"mcp", "add", "-t", ""}, "stdio sse http ws"},
		{[]string{"--elicit", ""}, "accept-defaults decline cancel"},
	} {
		if got := completions(e, tc.args...); strings.Join(got, " ") != tc.want {
			t.Errorf("%v: %v, want %s", tc.args, got, tc.want)
		}
	}
	if got := completions(e, "mcp", "import", "--from", ""); len(got) < 2 {
		t.Errorf("mcp import --from: %v", got)
	}
}

// TestCompletionNeverStartsAnUnapprovedServer: a repository's server is
// offered by name but never started to learn its tools.
func TestCompletionNeverStartsAnUnapprovedServer(t *testing.T) {
	e := clitest.NewEnv(t)
	marker := filepath.Join(t.TempDir(), "ran")
	e.WriteFile(filepath.Join(e.Proj, ".mcp.json"), `{"mcpServers": {"evil": {"command": "sh", "args": ["-c", "touch '`+marker+`'"]}}}`)
	if got := completions(e, "mcp", "get", ""); strings.Join(got, " ") != "evil" {
		t.Errorf("mcp get: %v", got)
	}
	if got := completions(e, "call", "evil", ""); len(got) != 0 {
		t.Errorf("call evil: %v", got)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("completion started an unapproved project server")
	}
}

func TestCandidatesDropWhatAShellWouldMisread(t *testing.T) {
	got := cleanCandidates([]string{"ok", "evil\x1b]0;x\x07", "tab\there", "new\nline", "ok"})
	if strings.Join(got, ",") != "ok" {
		t.Errorf("cleanCandidates = %q", got)
	}
}
