package config

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/private"
)

// fixture is a throw-away machine: a home with a project directory, a user
// config dir and a managed dir, plus a fake environment for ${VAR}.
type fixture struct {
	t                             testing.TB
	home, proj, cfg, managed, cwd string
	env                           map[string]string
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{
		t:       t,
		home:    filepath.Join(root, "home"),
		managed: filepath.Join(root, "etc", "mcpdeck"),
		env:     map[string]string{},
	}
	f.proj = filepath.Join(f.home, "proj")
	f.cwd = f.proj
	f.cfg = filepath.Join(f.home, ".config", "mcpdeck")
	if err := os.MkdirAll(f.proj, 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

// rooted is p, an absolute path written the Unix way ("/opt/srv"), as an
// absolute path of this system: on Windows, on the temporary directory's
// drive.
func rooted(p string) string {
	return filepath.Join(filepath.VolumeName(os.TempDir())+string(filepath.Separator), filepath.FromSlash(p))
}

func (f *fixture) opts(dynamic ...string) LoadOptions {
	return LoadOptions{
		Cwd: f.cwd, Home: f.home, ConfigDir: f.cfg, ManagedDir: f.managed, Dynamic: dynamic,
		LookupEnv: func(k string) (string, bool) { v, ok := f.env[k]; return v, ok },
	}
}

// write creates a file (and its directories) with content.
func (f *fixture) write(path, content string) string {
	f.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
	return path
}

func (f *fixture) read(path string) string {
	f.t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b)
}

func (f *fixture) userFile() string    { return filepath.Join(f.cfg, "settings.json") }
func (f *fixture) projectFile() string { return filepath.Join(f.proj, ".mcp.json") }

// localFile is the person's private state of the project (outside it).
func (f *fixture) localFile() string {
	return private.StatePath(filepath.Join(f.cfg, private.ProjectsDir), f.proj)
}

func (f *fixture) pluginFile(name string) string {
	return filepath.Join(f.cfg, "plugins", name, ".mcp.json")
}

func (f *fixture) load(dynamic ...string) *Resolved {
	f.t.Helper()
	r, err := Load(f.opts(dynamic...))
	if err != nil {
		f.t.Fatalf("Load: %v", err)
	}
	return r
}

// mustServer returns the named server or fails the test.
func mustServer(t *testing.T, r *Resolved, name string) model.Server {
	t.Helper()
	s, ok := r.Server(name)
	if !ok {
		t.Fatalf("server %q not loaded; have %v (problems %v)", name, serverNames(r), r.Problems)
	}
	return s
}

func serverNames(r *Resolved) []string {
	out := make([]string, len(r.Servers))
	for i, s := range r.Servers {
		out[i] = s.Name
	}
	return out
}

// servers builds an {"mcpServers": {...}} document from name→definition JSON.
func servers(kv ...string) string {
	s := `{"mcpServers": {`
	for i := 0; i < len(kv); i += 2 {
		if i > 0 {
			s += ","
		}
		s += "\n  " + strconv.Quote(kv[i]) + ": " + kv[i+1]
	}
	return s + "\n}}\n"
}
