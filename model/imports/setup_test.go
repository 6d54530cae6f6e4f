package imports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureEnv lays the fixture files of testdata/import out at the clients'
// real locations under a temporary home, config dir and project.
func fixtureEnv(t *testing.T) Env {
	t.Helper()
	root := t.TempDir()
	env := Env{
		Home:      filepath.Join(root, "home"),
		ConfigDir: filepath.Join(root, "home", ".config"),
		Cwd:       filepath.Join(root, "home", "proj"),
	}
	copies := map[string]string{
		"claude-desktop/claude_desktop_config.json": filepath.Join(env.ConfigDir, "Claude", "claude_desktop_config.json"),
		"claude-code/claude.json":                   filepath.Join(env.Home, ".claude.json"),
		"claude-code/mcp.json":                      filepath.Join(env.Cwd, ".mcp.json"),
		"vscode/mcp.json":                           filepath.Join(env.Cwd, ".vscode", "mcp.json"),
		"vscode/settings.json":                      filepath.Join(env.ConfigDir, "Code", "User", "settings.json"),
		"cursor/user-mcp.json":                      filepath.Join(env.Home, ".cursor", "mcp.json"),
		"cursor/project-mcp.json":                   filepath.Join(env.Cwd, ".cursor", "mcp.json"),
	}
	for from, to := range copies {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "import", from))
		if err != nil {
			t.Fatal(err)
		}
		data = []byte(strings.ReplaceAll(string(data), "__PROJECT__", env.Cwd))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return env
}

// byName indexes entries; a name seen twice fails the test.
func byName(t *testing.T, entries []Entry) map[string]Entry {
	t.Helper()
	m := map[string]Entry{}
	for _, e := range entries {
		if _, dup := m[e.Name]; dup {
			t.Fatalf("entry %s appears twice", e.Name)
		}
		m[e.Name] = e
	}
	return m
}
