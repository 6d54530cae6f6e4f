package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
)

func TestAddServerEachScope(t *testing.T) {
	f := newFixture(t)
	opts := f.opts()
	cfg := model.ServerConfig{Command: "npx", Args: []string{"-y", "pkg"}, Env: map[string]string{"T": "${TOKEN}"}}
	for _, tc := range []struct {
		scope model.Scope
		file  string
		mode  os.FileMode
	}{
		{model.ScopeLocal, f.localFile(), 0o600},
		{model.ScopeProject, f.projectFile(), 0o644},
		{model.ScopeUser, f.userFile(), 0o600},
	} {
		name := "srv-" + tc.scope.String()
		path, err := AddServer(opts, tc.scope, name, cfg)
		if err != nil || path != tc.file {
			t.Fatalf("%s: path %q err %v, want %q", tc.scope, path, err, tc.file)
		}
		st, err := os.Stat(path)
		if err != nil || runtime.GOOS != "windows" && st.Mode().Perm() != tc.mode {
			t.Errorf("%s: mode %v err %v, want %v", tc.scope, st.Mode().Perm(), err, tc.mode)
		}
		s := mustServer(t, f.load(), name)
		if s.Scope != tc.scope || s.Source != tc.file || s.Raw.Env["T"] != "${TOKEN}" || model.ConfigHash(s.Raw) != model.ConfigHash(cfg) {
			t.Errorf("%s: read back %+v", tc.scope, s)
		}
		if _, err := AddServer(opts, tc.scope, name, cfg); !errors.Is(err, model.ErrExists) || !strings.Contains(err.Error(), tc.file) {
			t.Errorf("%s: second add: %v, want ErrExists naming the file", tc.scope, err)
		}
	}
	for _, bad := range []struct {
		scope model.Scope
		name  string
		cfg   model.ServerConfig
	}{
		{model.ScopeDynamic, "x", cfg},
		{model.ScopeEnterprise, "x", cfg},
		{model.ScopePlugin, "x", cfg},
		{model.ScopeLocal, "all", cfg},
		{model.ScopeLocal, "", cfg},
		{model.ScopeLocal, "x", model.ServerConfig{}},
		{model.ScopeLocal, "x", model.ServerConfig{Type: model.TransportHTTP}},
		{model.ScopeLocal, "x", model.ServerConfig{Type: "carrier-pigeon", URL: "x"}},
	} {
		if _, err := AddServer(opts, bad.scope, bad.name, bad.cfg); !errors.Is(err, model.ErrInvalid) || errors.Is(err, model.ErrFileUnusable) {
			t.Errorf("AddServer(%s, %q, %+v) = %v, want ErrInvalid (the definition's fault, not the file's)", bad.scope, bad.name, bad.cfg, err)
		}
	}
	// A URL made of a variable is accepted; it is checked when loaded.
	if _, err := AddServer(opts, model.ScopeLocal, "varurl", model.ServerConfig{Type: model.TransportHTTP, URL: "${MCP_URL}"}); err != nil {
		t.Errorf("url with ${VAR}: %v", err)
	}
}

func TestRewriteKeepsUnknownFieldsOrderAndMode(t *testing.T) {
	f := newFixture(t)
	orig := `{
    "theme": "dark",
    "mcpServers": {
        "zeta": {"command": "z", "x-custom": {"keep": [1, 2]}, "args": ["a"]},
        "alpha": {
            "type": "http",
            "url": "https://e.com/mcp?a=1&b=2",
            "vendorField": true
        }
    },
    "permissions": {"allow": ["mcp__zeta__*"]},
    "zzz": null
}
`
	path := f.write(f.userFile(), orig)
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := AddServer(f.opts(), model.ScopeUser, "new", model.ServerConfig{Command: "n"}); err != nil {
		t.Fatal(err)
	}
	got := f.read(path)
	want := strings.Replace(orig, `            "vendorField": true
        }
    },`, `            "vendorField": true
        },
        "new": {
            "command": "n"
        }
    },`, 1)
	if got != want {
		t.Errorf("rewrite changed more than the new member:\n%s\nwant\n%s", got, want)
	}
	if st, _ := os.Stat(path); runtime.GOOS != "windows" && st.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v, want 0640", st.Mode().Perm())
	}
	if _, err := RemoveServer(f.opts(), model.ScopeUser, "new"); err != nil {
		t.Fatal(err)
	}
	if got := f.read(path); got != orig {
		t.Errorf("add then remove is not the identity:\n%s", got)
	}
	// Remove the first and the last member: neighbours keep their text.
	if _, err := RemoveServer(f.opts(), 0, "zeta"); err != nil {
		t.Fatal(err)
	}
	got = f.read(path)
	if strings.Contains(got, "zeta\"") || !strings.Contains(got, `"mcpServers": {
        "alpha": {`) || !strings.Contains(got, `"permissions": {"allow": ["mcp__zeta__*"]}`) {
		t.Errorf("after removing zeta:\n%s", got)
	}
	if _, err := RemoveServer(f.opts(), model.ScopeUser, "alpha"); err != nil {
		t.Fatal(err)
	}
	if got := f.read(path); !strings.Contains(got, `"mcpServers": {},`) || !strings.Contains(got, `"zzz": null`) {
		t.Errorf("after removing all servers:\n%s", got)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 2 {
		t.Errorf("temp or lock files left behind (only the file and its backup may be there): %v", entries)
	}
	// The file as it was before the first rewrite is kept beside it,
	// with its mode, and later rewrites leave that copy alone.
	if got := f.read(path + ".backup"); got != orig {
		t.Errorf("the backup is not the file before the first rewrite:\n%s", got)
	}
	// Windows has no permission bits to keep (Go reports 0666 for every file).
	if st, _ := os.Stat(path + ".backup"); runtime.GOOS != "windows" && st.Mode().Perm() != 0o640 {
		t.Errorf("backup mode = %v, want the file's 0640", st.Mode().Perm())
	}
}

func TestRewriteCompactAndEmptyLayouts(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{}`, "{\n  \"mcpServers\": {\n    \"n\": {\n      \"command\": \"c\"\n    }\n  }\n}"},
		{`{"mcpServers":{"a":{"command":"x"}}}`, `{"mcpServers":{"a":{"command":"x"}, "n": {"command":"c"}}}`},
		{"{\n\t\"other\": 1\n}\n", "{\n\t\"other\": 1,\n\t\"mcpServers\": {\n\t\t\"n\": {\n\t\t\t\"command\": \"c\"\n\t\t}\n\t}\n}\n"},
		{`{"mcpServers": null}`, "{\"mcpServers\": {\n  \"n\": {\n    \"command\": \"c\"\n  }\n}}"},
	} {
		out, err := jsonfile.SetMember([]byte(tc.in), []string{jsonfile.ServersKey, "n"}, model.ServerConfig{Command: "c"})
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != tc.want {
			t.Errorf("insert into %q:\n%s\nwant\n%s", tc.in, out, tc.want)
		}
		if _, err := jsondoc.Parse(out); err != nil {
			t.Errorf("result is not JSON: %v", err)
		}
	}
}

func TestRemoveServer(t *testing.T) {
	f := newFixture(t)
	opts := f.opts()
	f.write(f.userFile(), servers("both", `{"command":"u"}`, "useronly", `{"command":"u"}`))
	f.write(f.localFile(), servers("both", `{"command":"l"}`))
	f.write(f.pluginFile("p"), servers("plug", `{"command":"p"}`))

	if _, err := RemoveServer(opts, 0, "both"); !errors.Is(err, model.ErrInvalid) || !strings.Contains(err.Error(), "local, user") {
		t.Errorf("ambiguous removal: %v", err)
	}
	if _, err := RemoveServer(opts, 0, "plug"); !errors.Is(err, model.ErrInvalid) || !strings.Contains(err.Error(), "plugin") {
		t.Errorf("removing a plugin server: %v", err)
	}
	if _, err := RemoveServer(opts, 0, "ghost"); !errors.Is(err, model.ErrNotFound) {
		t.Errorf("removing an unknown server: %v", err)
	}
	if _, err := RemoveServer(opts, model.ScopeProject, "both"); !errors.Is(err, model.ErrNotFound) {
		t.Errorf("removing from a scope that lacks it: %v", err)
	}
	path, err := RemoveServer(opts, model.ScopeLocal, "both")
	if err != nil || path != f.localFile() {
		t.Fatalf("remove local: %q %v", path, err)
	}
	if s := mustServer(t, f.load(), "both"); s.Scope != model.ScopeUser {
		t.Errorf("after removing the local one, the user one shows: %v", s.Scope)
	}
	if path, err := RemoveServer(opts, 0, "useronly"); err != nil || path != f.userFile() {
		t.Errorf("remove without scope: %q %v", path, err)
	}
}

func TestSetEnabled(t *testing.T) {
	f := newFixture(t)
	opts := f.opts()
	f.write(f.userFile(), servers("a", `{"command":"x"}`, "b.x", `{"command":"y"}`))
	f.write(f.localFile(), `{"someTool": {"keep": true}}`)
	if err := SetEnabled(opts, "a", false); err != nil {
		t.Fatal(err)
	}
	r := f.load()
	if a := mustServer(t, r, "a"); a.Enabled || a.Runnable() {
		t.Errorf("a still enabled")
	}
	if !mustServer(t, r, "b.x").Enabled {
		t.Errorf("b.x disabled too")
	}
	if err := SetEnabled(opts, "all", false); err != nil {
		t.Fatal(err)
	}
	for _, s := range f.load().Servers {
		if s.Enabled {
			t.Errorf("%s enabled after disable all", s.Name)
		}
	}
	if err := SetEnabled(opts, "b_x", true); err != nil { // normalized name
		t.Fatal(err)
	}
	if !mustServer(t, f.load(), "b.x").Enabled {
		t.Error("b.x not re-enabled")
	}
	if err := SetEnabled(opts, "all", true); err != nil {
		t.Fatal(err)
	}
	for _, s := range f.load().Servers {
		if !s.Enabled {
			t.Errorf("%s disabled after enable all", s.Name)
		}
	}
	if !strings.Contains(f.read(f.localFile()), `"someTool": {"keep": true}`) {
		t.Errorf("unknown settings lost:\n%s", f.read(f.localFile()))
	}
	if err := SetEnabled(opts, "ghost", false); !errors.Is(err, model.ErrNotFound) {
		t.Errorf("unknown server: %v", err)
	}
	f.write(f.localFile(), `{"disabledMcpServers": "a"}`)
	if err := SetEnabled(opts, "a", false); !errors.Is(err, model.ErrFileUnusable) || !errors.Is(err, model.ErrInvalid) || f.read(f.localFile()) != `{"disabledMcpServers": "a"}` {
		t.Errorf("wrong-typed list: %v", err)
	}
}

// Two writers adding different servers to the same file must not lose each
// other's additions (the lock serializes the read-modify-write). The CLI has
// the two-process version of this test.
func TestConcurrentWriters(t *testing.T) {
	f := newFixture(t)
	opts := f.opts()
	const perWriter = 50
	var wg sync.WaitGroup
	errs := make(chan error, 2*perWriter)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				if _, err := AddServer(opts, model.ScopeLocal, fmt.Sprintf("w%d-%02d", w, i), model.ServerConfig{Command: "x"}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	r := f.load()
	if len(r.Servers) != 2*perWriter || len(r.Problems) != 0 {
		t.Errorf("%d servers (want %d), problems %v", len(r.Servers), 2*perWriter, r.Problems)
	}
}

func TestDefaultLoadOptions(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "xdg"))
	t.Setenv("MCPDECK_MANAGED_DIR", filepath.Join(dir, "managed"))
	wantConfig := filepath.Join(dir, "xdg", "mcpdeck")
	if runtime.GOOS == "windows" { // no XDG there: %AppData%
		t.Setenv("APPDATA", filepath.Join(dir, "appdata"))
		wantConfig = filepath.Join(dir, "appdata", "mcpdeck")
	}
	o, err := DefaultLoadOptions([]string{"x.json"})
	if err != nil {
		t.Fatal(err)
	}
	if o.ConfigDir != wantConfig || o.ManagedDir != filepath.Join(dir, "managed") ||
		o.Cwd == "" || o.Home == "" || len(o.Dynamic) != 1 || o.LookupEnv != nil {
		t.Errorf("options = %+v", o)
	}
	t.Setenv("MCPDECK_MANAGED_DIR", "")
	if o, _ := DefaultLoadOptions(nil); o.ManagedDir != defaultManagedDir {
		t.Errorf("managed dir = %q", o.ManagedDir)
	}
}

// TestBackupBeforeFirstRewrite: the person's settings and private state
// are kept as FILE.backup before mcpdeck first rewrites them (as Claude
// Code keeps ~/.claude.json.backup); a file mcpdeck creates has nothing
// to keep, and a project's .mcp.json, which lives in the repository, gets
// no stray file beside it.
func TestBackupBeforeFirstRewrite(t *testing.T) {
	f := newFixture(t)
	orig := servers("a", `{"command":"a"}`)
	f.write(f.userFile(), orig)
	f.write(f.projectFile(), servers("p", `{"command":"p"}`))
	if _, err := AddServer(f.opts(), model.ScopeUser, "b", model.ServerConfig{Command: "b"}); err != nil {
		t.Fatal(err)
	}
	if _, err := AddServer(f.opts(), model.ScopeUser, "c", model.ServerConfig{Command: "c"}); err != nil {
		t.Fatal(err)
	}
	if got := f.read(f.userFile() + ".backup"); got != orig {
		t.Errorf("settings.json.backup = %q, want the file before the first rewrite", got)
	}
	if _, err := AddServer(f.opts(), model.ScopeLocal, "l", model.ServerConfig{Command: "l"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(f.localFile() + ".backup"); !os.IsNotExist(err) {
		t.Errorf("a backup of a file mcpdeck created: %v", err)
	}
	before := f.read(f.localFile())
	if _, err := AddServer(f.opts(), model.ScopeLocal, "m", model.ServerConfig{Command: "m"}); err != nil {
		t.Fatal(err)
	}
	if got := f.read(f.localFile() + ".backup"); got != before {
		t.Errorf("private state backup = %q, want %q", got, before)
	}
	if _, err := AddServer(f.opts(), model.ScopeProject, "q", model.ServerConfig{Command: "q"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(f.projectFile() + ".backup"); !os.IsNotExist(err) {
		t.Errorf("a backup beside the repository's .mcp.json: %v", err)
	}
}
