package demo

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
)

// Env is a throw-away configuration for the demo: a temporary home with a
// project (.mcp.json holding a server awaiting approval), a user config dir
// (the crashing stdio server and one blocked by policy) and a managed dir
// (the demo policy). Approvals made in the demo land here, never in the
// person's own files.
type Env struct {
	Dir      string
	Load     config.LoadOptions
	CacheDir string
	Extra    []model.Server
	Builtins map[string]func() *server.MCPServer
}

// Setup writes the demo configuration under a new temporary directory. exe
// is the mcpdeck binary that serves `demo-server NAME` (os.Executable()).
func Setup(exe string) (*Env, error) {
	dir, err := os.MkdirTemp("", "mcpdeck-demo-")
	if err != nil {
		return nil, fmt.Errorf("creating the demo directory: %w", err)
	}
	e := &Env{Dir: dir, CacheDir: filepath.Join(dir, "cache"), Builtins: Builtins()}
	home := filepath.Join(dir, "home")
	// The crashy server's count lives apart from home: env values are
	// masked wherever they appear, so were it dir itself, every path the
	// demo shows ("Runs in", the approval prompt's) would read ****/home/….
	state := filepath.Join(dir, "state")
	if err := os.MkdirAll(state, 0o700); err != nil {
		e.Cleanup()
		return nil, fmt.Errorf("creating the demo directory: %w", err)
	}
	e.Load = config.LoadOptions{
		Home:       home,
		Cwd:        filepath.Join(home, "project"),
		ConfigDir:  filepath.Join(dir, "config", "mcpdeck"),
		ManagedDir: filepath.Join(dir, "managed"),
		LookupEnv:  func(string) (string, bool) { return "", false },
	}
	stdio := func(name string) map[string]any {
		return map[string]any{
			"type": model.TransportStdio, "command": exe, "args": []string{"demo-server", name},
			"env": map[string]string{StateEnv: state},
		}
	}
	files := map[string]any{
		filepath.Join(e.Load.Cwd, config.ProjectFile): map[string]any{"mcpServers": map[string]any{
			"reviewer": stdio("reviewer"),
		}},
		filepath.Join(e.Load.ConfigDir, config.UserSettingsFile): map[string]any{"mcpServers": map[string]any{
			"crashy":  stdio("crashy"),
			"blocked": stdio("blocked"),
		}},
		filepath.Join(e.Load.ManagedDir, config.ManagedSettingsFile): map[string]any{
			"deniedMcpServers": []map[string]string{{"serverName": "blocked"}},
		},
	}
	for path, v := range files {
		if err := writeJSON(path, v); err != nil {
			e.Cleanup()
			return nil, err
		}
	}
	for _, name := range []string{"notes", "calculator", "weather-sim", "survey", "webmail"} {
		cfg := model.ServerConfig{Type: model.TransportSDK, Name: name}
		e.Extra = append(e.Extra, model.Server{Name: name, Scope: model.ScopeDynamic, Source: "built-in (demo)", Raw: cfg, Config: cfg})
	}
	return e, nil
}

func writeJSON(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(path), err)
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", path, err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Cleanup removes the demo directory.
func (e *Env) Cleanup() { _ = os.RemoveAll(e.Dir) }
