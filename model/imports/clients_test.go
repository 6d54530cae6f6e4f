package imports

import (
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

func TestReadClaudeDesktop(t *testing.T) {
	t.Parallel()
	env := fixtureEnv(t)
	res, err := Read(ClaudeDesktop, env)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Read) != 1 || len(res.Problems) != 0 {
		t.Fatalf("read %v, problems %v", res.Read, res.Problems)
	}
	var names []string
	for _, e := range res.Entries {
		names = append(names, e.Name)
	}
	if want := []string{"filesystem", "github", "docs", "no-command"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("names in file order = %v, want %v", names, want)
	}
	m := byName(t, res.Entries)
	gh := m["github"]
	if gh.Reason != "" || gh.Config.Type != model.TransportStdio || gh.Config.Command != "npx" ||
		gh.Config.Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != "ghp_fixture_not_a_secret" {
		t.Errorf("github = %+v", gh)
	}
	if d := m["docs"]; d.Config.Type != model.TransportHTTP || d.Config.URL != "https://docs.example.com/mcp" {
		t.Errorf("docs = %+v", d)
	}
	if r := m["no-command"].Reason; !strings.Contains(r, "neither a command nor a url") {
		t.Errorf("no-command reason = %q", r)
	}
}

func TestReadClaudeCode(t *testing.T) {
	t.Parallel()
	env := fixtureEnv(t)
	res, err := Read(ClaudeCode, env)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, e := range res.Entries {
		order = append(order, e.Name+"@"+strings.Fields(e.Origin)[0])
	}
	// local (projects[cwd]) first, then .mcp.json, then user-wide.
	want := []string{"shared@local", "ide@local", "db@project", "sentry@user", "shared@user"}
	if !reflect.DeepEqual(order, want) {
		t.Fatalf("order = %v, want %v", order, want)
	}
	first := res.Entries[0]
	if first.Config.Command != "local-version" || !reflect.DeepEqual(first.Config.Args, []string{"--port", "${PORT:-8080}"}) {
		t.Errorf("local shared = %+v (Claude Code ${VAR} forms must be kept)", first.Config)
	}
	if r := res.Entries[1].Reason; !strings.Contains(r, `"sse-ide"`) {
		t.Errorf("ide reason = %q", r)
	}
	for _, e := range res.Entries {
		if e.Name == "other-project" {
			t.Error("servers of another project were imported")
		}
	}
}

func TestReadClaudeCodeFromSubdirectory(t *testing.T) {
	t.Parallel()
	env := fixtureEnv(t)
	env.Cwd = filepath.Join(env.Cwd, "sub", "dir")
	res, err := Read(ClaudeCode, env)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Entries) == 0 || res.Entries[0].Config.Command != "local-version" {
		t.Fatalf("project entry of an ancestor directory not found: %+v", res.Entries)
	}
}

func TestReadVSCode(t *testing.T) {
	t.Parallel()
	env := fixtureEnv(t)
	res, err := Read(VSCode, env)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) != 0 {
		t.Fatalf("problems: %v", res.Problems)
	}
	m := byName(t, res.Entries)
	if r := m["perplexity"].Reason; !strings.Contains(r, "${input:perplexity-key}") {
		t.Errorf("perplexity reason = %q", r)
	}
	f := m["fetch"]
	if f.Reason != "" || f.Config.Cwd != env.Cwd || f.Config.Env["FETCH_TOKEN"] != "${FETCH_TOKEN}" {
		t.Errorf("fetch = %+v", f)
	}
	if g := m["github"]; g.Config.Type != model.TransportHTTP {
		t.Errorf("github = %+v", g)
	}
	if l := m["legacy"]; l.Config.Type != model.TransportSSE || l.Origin != OriginWorkspace {
		t.Errorf("legacy = %+v", l)
	}
	tm := m["time"]
	if tm.Origin != OriginUser || !reflect.DeepEqual(tm.Config.Args, []string{"mcp-server-time", "--local-timezone=${TZ}"}) {
		t.Errorf("time = %+v", tm)
	}
	if r := m["with-env-file"].Reason; !strings.Contains(r, "envFile") {
		t.Errorf("with-env-file reason = %q", r)
	}
}

func TestReadCursor(t *testing.T) {
	t.Parallel()
	env := fixtureEnv(t)
	res, err := Read(Cursor, env)
	if err != nil {
		t.Fatal(err)
	}
	m := byName(t, res.Entries)
	if res.Entries[0].Origin != OriginProject {
		t.Errorf("project file should come first, got %+v", res.Entries[0])
	}
	if l := m["local-tool"]; l.Config.Args[0] != filepath.Join(env.Cwd, "tools/server.py") {
		t.Errorf("local-tool args = %v", l.Config.Args)
	}
	if r := m["needs-config"].Reason; !strings.Contains(r, "${config:tool.path}") {
		t.Errorf("needs-config reason = %q", r)
	}
	if l := m["linear"]; l.Config.Type != model.TransportSSE {
		t.Errorf("linear (url ending /sse, no type) = %+v", l)
	}
	if c := m["context7"]; c.Config.Type != model.TransportHTTP || c.Config.Headers["CONTEXT7_API_KEY"] != "${CONTEXT7_KEY}" {
		t.Errorf("context7 = %+v", c)
	}
	o := m["oauth-app"]
	if o.Config.OAuth == nil || o.Config.OAuth.ClientID != "cursor-client" || len(o.Notes) != 1 {
		t.Fatalf("oauth-app = %+v", o)
	}
	if strings.Contains(o.Notes[0], "fixture-secret") {
		t.Error("a note shows the client secret")
	}
}

func TestReadMissingFilesIsEmpty(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range Clients() {
		res, err := Read(c, Env{Home: dir, ConfigDir: dir, Cwd: dir})
		if err != nil || len(res.Entries) != 0 || len(res.Read) != 0 || len(res.Files) == 0 {
			t.Errorf("%s: %+v, %v", c, res, err)
		}
	}
	if _, err := Read("emacs", Env{}); err == nil {
		t.Error("unknown client accepted")
	}
}

func TestReadFile(t *testing.T) {
	t.Parallel()
	env := fixtureEnv(t)
	tests := []struct {
		client Client
		path   string
		want   []string
	}{
		{VSCode, filepath.Join(env.ConfigDir, "Code", "User", "settings.json"), []string{"time", "with-env-file"}},
		{VSCode, filepath.Join(env.Cwd, ".vscode", "mcp.json"), []string{"perplexity", "fetch", "github", "legacy"}},
		{ClaudeCode, filepath.Join(env.Cwd, ".mcp.json"), []string{"db"}},
		{Cursor, filepath.Join(env.Cwd, ".cursor", "mcp.json"), []string{"local-tool", "needs-config"}},
		{ClaudeDesktop, filepath.Join(env.ConfigDir, "Claude", "claude_desktop_config.json"), []string{"filesystem", "github", "docs", "no-command"}},
	}
	for _, tt := range tests {
		res, err := ReadFile(tt.client, tt.path, env)
		if err != nil {
			t.Fatalf("%s %s: %v", tt.client, tt.path, err)
		}
		var got []string
		for _, e := range res.Entries {
			got = append(got, e.Name)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %s: got %v, want %v", tt.client, tt.path, got, tt.want)
		}
	}
	missing := filepath.Join(env.Cwd, "nope.json")
	_, err := ReadFile(Cursor, missing, env)
	if want := "cannot read " + missing + ": no such file or directory"; err == nil || err.Error() != want || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing --file: %v, want %q (and fs.ErrNotExist)", err, want)
	}
}
