package config

import (
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/policy"
)

func TestLoadMergePriority(t *testing.T) {
	f := newFixture(t)
	f.write(f.pluginFile("aplug"), servers("shared", `{"command":"plugin-cmd"}`, "ponly", `{"command":"p"}`))
	f.write(f.userFile(), servers("shared", `{"command":"user-cmd"}`, "uonly", `{"command":"u"}`))
	f.write(f.projectFile(), servers("shared", `{"command":"project-cmd"}`, "jonly", `{"command":"j"}`))
	f.write(f.localFile(), servers("shared", `{"command":"local-cmd"}`, "lonly", `{"command":"l"}`))
	dyn := f.write(filepath.Join(f.home, "dyn.json"), servers("shared", `{"command":"dyn-file"}`))
	r := f.load(dyn, `{"mcpServers":{"shared":{"command":"dyn-inline"},"donly":{"command":"d"}}}`)

	if got, want := serverNames(r), []string{"donly", "jonly", "lonly", "ponly", "shared", "uonly"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("servers = %v, want %v (problems %v)", got, want, r.Problems)
	}
	s := mustServer(t, r, "shared")
	if s.Scope != model.ScopeDynamic || s.Source != inlineSource || s.Config.Command != "dyn-inline" {
		t.Errorf("winner = %s %s %q, want the last --mcp-config (inline)", s.Scope, s.Source, s.Config.Command)
	}
	wantOverrides := []model.Origin{
		{Scope: model.ScopeDynamic, Source: dyn},
		{Scope: model.ScopeLocal, Source: f.localFile()},
		{Scope: model.ScopeProject, Source: f.projectFile()},
		{Scope: model.ScopeUser, Source: f.userFile()},
		{Scope: model.ScopePlugin, Source: f.pluginFile("aplug")},
	}
	if !reflect.DeepEqual(s.Overrides, wantOverrides) {
		t.Errorf("overrides = %v\nwant %v", s.Overrides, wantOverrides)
	}
	for name, scope := range map[string]model.Scope{"ponly": model.ScopePlugin, "uonly": model.ScopeUser, "jonly": model.ScopeProject, "lonly": model.ScopeLocal, "donly": model.ScopeDynamic} {
		if got := mustServer(t, r, name); got.Scope != scope || len(got.Overrides) != 0 {
			t.Errorf("%s: scope %s overrides %v, want %s and none", name, got.Scope, got.Overrides, scope)
		}
	}
	if r.Enterprise || r.ProjectRoot != f.proj {
		t.Errorf("enterprise=%v root=%q", r.Enterprise, r.ProjectRoot)
	}
	for _, want := range []string{
		f.userFile(), f.projectFile(), f.localFile(), dyn, f.pluginFile("aplug"),
		filepath.Join(f.managed, ManagedMCPFile), filepath.Join(f.managed, ManagedSettingsFile),
	} {
		if !slices.Contains(r.Files, want) {
			t.Errorf("Files lacks %s: %v", want, r.Files)
		}
	}
}

func TestLoadEnterpriseIsExclusive(t *testing.T) {
	f := newFixture(t)
	f.write(f.userFile(), servers("mine", `{"command":"u"}`))
	f.write(f.projectFile(), servers("repo", `{"command":"p"}`))
	f.write(filepath.Join(f.managed, ManagedMCPFile), servers("corp", `{"type":"http","url":"https://corp.example/mcp"}`))
	r := f.load(`{"mcpServers":{"dyn":{"command":"d"}}}`)
	if !r.Enterprise || !reflect.DeepEqual(serverNames(r), []string{"corp"}) {
		t.Fatalf("enterprise=%v servers=%v, want only corp", r.Enterprise, serverNames(r))
	}
	if s := mustServer(t, r, "corp"); s.Scope != model.ScopeEnterprise || !s.Runnable() {
		t.Errorf("corp: %+v", s)
	}

	// A broken managed file still excludes everything else (fail closed).
	f.write(filepath.Join(f.managed, ManagedMCPFile), `{"mcpServers": {`)
	r = f.load()
	if !r.Enterprise || len(r.Servers) != 0 || len(r.Problems) != 1 {
		t.Errorf("broken managed file: enterprise=%v servers=%v problems=%v", r.Enterprise, serverNames(r), r.Problems)
	}
}

func TestLoadProjectDiscovery(t *testing.T) {
	f := newFixture(t)
	deep := filepath.Join(f.proj, "a", "b")
	f.write(filepath.Join(deep, "keep"), "")
	f.write(f.projectFile(), servers("near", `{"command":"n"}`))
	f.write(filepath.Join(f.home, ".mcp.json"), servers("far", `{"command":"f"}`))
	f.cwd = deep
	r := f.load()
	if got := serverNames(r); !reflect.DeepEqual(got, []string{"near"}) {
		t.Errorf("servers = %v: the nearest .mcp.json wins, the farther one is not read", got)
	}
	if r.ProjectRoot != f.proj {
		t.Errorf("root = %s, want %s", r.ProjectRoot, f.proj)
	}
	for _, want := range []string{filepath.Join(deep, ".mcp.json"), filepath.Join(f.proj, "a", ".mcp.json"), f.projectFile()} {
		if !slices.Contains(r.Files, want) {
			t.Errorf("walk did not consult %s", want)
		}
	}
	if slices.Contains(r.Files, filepath.Join(filepath.Dir(f.home), ".mcp.json")) {
		t.Error("walk went above the home directory")
	}

	// Without any .mcp.json: the walk stops at home and the root is Cwd.
	g := newFixture(t)
	g.cwd = filepath.Join(g.proj, "sub")
	g.write(filepath.Join(g.cwd, "keep"), "")
	r = g.load()
	if r.ProjectRoot != g.cwd || len(r.Servers) != 0 {
		t.Errorf("root = %s servers %v", r.ProjectRoot, serverNames(r))
	}
	if slices.Contains(r.Files, filepath.Join(filepath.Dir(g.home), ".mcp.json")) {
		t.Error("walk went above the home directory")
	}

	// A .mcpdeck directory above Cwd neither marks the root nor is read:
	// anyone who can write to a parent directory could have put it there.
	h := newFixture(t)
	h.write(filepath.Join(h.proj, ".mcpdeck", "settings.local.json"), servers("loc", `{"command":"l"}`))
	h.cwd = filepath.Join(h.proj, "sub")
	h.write(filepath.Join(h.cwd, "keep"), "")
	r = h.load()
	if r.ProjectRoot != h.cwd || len(r.Servers) != 0 || r.Untrusted != nil {
		t.Errorf("root = %s, servers %v, untrusted %v", r.ProjectRoot, serverNames(r), r.Untrusted)
	}
}

func TestLoadDedup(t *testing.T) {
	f := newFixture(t)
	f.write(f.pluginFile("a-first"), servers(
		"gh-plugin", `{"command":"npx","args":["-y","gh"]}`,
		"remote-plugin", `{"type":"http","url":"https://api.example/mcp"}`,
		"solo", `{"command":"solo"}`,
		"twin-a", `{"command":"twin"}`,
	))
	f.write(f.pluginFile("b-second"), servers(
		"twin-b", `{"command":"twin"}`,
		"other-args", `{"command":"npx","args":["-y","gh","--x"]}`,
	))
	f.write(f.userFile(), servers(
		"github", `{"command":"npx","args":["-y","gh"]}`,
		"api", `{"type":"http","url":"https://api.example/mcp"}`,
	))
	r := f.load()
	if got, want := serverNames(r), []string{"api", "github", "other-args", "solo", "twin-a"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("servers = %v, want %v", got, want)
	}
	want := []Suppressed{
		{
			Name: "gh-plugin", Origin: model.Origin{Scope: model.ScopePlugin, Source: f.pluginFile("a-first")}, By: "github",
			ByOrigin: model.Origin{Scope: model.ScopeUser, Source: f.userFile()}, Signature: `stdio:["npx","-y","gh"]`,
		},
		{
			Name: "remote-plugin", Origin: model.Origin{Scope: model.ScopePlugin, Source: f.pluginFile("a-first")}, By: "api",
			ByOrigin: model.Origin{Scope: model.ScopeUser, Source: f.userFile()}, Signature: "url:https://api.example/mcp",
		},
		{
			Name: "twin-b", Origin: model.Origin{Scope: model.ScopePlugin, Source: f.pluginFile("b-second")}, By: "twin-a",
			ByOrigin: model.Origin{Scope: model.ScopePlugin, Source: f.pluginFile("a-first")}, Signature: `stdio:["twin"]`,
		},
	}
	if !reflect.DeepEqual(r.Suppressed, want) {
		t.Errorf("suppressed = %+v\nwant %+v", r.Suppressed, want)
	}
}

// A definition with no command or URL (broken, or a remote one missing its
// "type") has no signature: it must neither hide nor be hidden by another
// such definition, or a broken user server would silently swallow a plugin's.
func TestLoadDedupIgnoresEmptySignatures(t *testing.T) {
	f := newFixture(t)
	f.write(f.pluginFile("p"), servers(
		"no-type", `{"url":"https://p.example/mcp"}`,
		"no-url", `{"type":"http"}`,
	))
	f.write(f.userFile(), servers(
		"broken", `{"command":"x","command":"y"}`,
		"empty", `{"args":["-v"]}`,
		"no-url-user", `{"type":"sse"}`,
	))
	r := f.load()
	if len(r.Suppressed) != 0 {
		t.Errorf("suppressed = %+v, want none", r.Suppressed)
	}
	if got, want := serverNames(r), []string{"broken", "empty", "no-type", "no-url", "no-url-user"}; !reflect.DeepEqual(got, want) {
		t.Errorf("servers = %v, want %v", got, want)
	}
}

func TestLoadSameNameBetweenPluginsFirstWins(t *testing.T) {
	f := newFixture(t)
	f.write(f.pluginFile("a"), servers("same", `{"command":"from-a"}`))
	f.write(f.pluginFile("b"), servers("same", `{"command":"from-b"}`))
	s := mustServer(t, f.load(), "same")
	if s.Config.Command != "from-a" || len(s.Overrides) != 1 || s.Overrides[0].Source != f.pluginFile("b") {
		t.Errorf("got %q overrides %v", s.Config.Command, s.Overrides)
	}
}

func TestLoadExpansionProblems(t *testing.T) {
	f := newFixture(t)
	f.env["GOOD"] = "tok"
	f.write(f.userFile(), `{"mcpServers": {
  "ok": {"type": "http", "url": "https://e.com", "headers": {"Authorization": "Bearer ${GOOD}"}},
  "x": {"type": "http", "url": "https://e.com",
        "headers": {"Authorization": "Bearer ${API_TOKEN}"}},
  "d": {"command": "${TOOL:-npx}", "args": ["${ARG:-a}"]}
}}`)
	r := f.load()
	ok := mustServer(t, r, "ok")
	if !ok.Runnable() || ok.Config.Headers["Authorization"] != "Bearer tok" || ok.Raw.Headers["Authorization"] != "Bearer ${GOOD}" {
		t.Errorf("ok: runnable=%v config %v raw %v", ok.Runnable(), ok.Config.Headers, ok.Raw.Headers)
	}
	x := mustServer(t, r, "x")
	if len(x.Problems) != 1 || x.Runnable() {
		t.Fatalf("x: problems %v", x.Problems)
	}
	want := "server x, field headers.Authorization: ${API_TOKEN} is not set (" + f.userFile() + ":4:38)"
	if got := x.Problems[0].Error(); got != want {
		t.Errorf("problem =\n %s\nwant\n %s", got, want)
	}
	if d := mustServer(t, r, "d"); d.Config.Command != "npx" || d.Config.Args[0] != "a" || !d.Runnable() {
		t.Errorf("defaults not applied: %+v", d.Config)
	}
}

func TestLoadValidation(t *testing.T) {
	f := newFixture(t)
	f.write(f.userFile(), servers(
		"nocmd", `{"args":["x"]}`,
		"urlnotype", `{"url":"https://e.com/mcp"}`,
		"nourl", `{"type":"sse"}`,
		"badscheme", `{"type":"ws","url":"https://e.com"}`,
		"relurl", `{"type":"http","url":"/mcp"}`,
		"ide", `{"type":"sse-ide","url":"http://e.com"}`,
		"sdk", `{"type":"sdk"}`,
		"good-ws", `{"type":"ws","url":"wss://e.com/mcp","headers":{}}`,
		"good-sdk", `{"type":"sdk","name":"demo"}`,
	))
	r := f.load()
	for name, field := range map[string]string{"nocmd": "command", "urlnotype": "type", "nourl": "url", "badscheme": "url", "relurl": "url", "ide": "type", "sdk": "name"} {
		s := mustServer(t, r, name)
		if len(s.Problems) != 1 || s.Problems[0].Field != field || s.Problems[0].Line == 0 {
			t.Errorf("%s: problems %v, want one on field %s with a line", name, s.Problems, field)
		}
	}
	for _, name := range []string{"good-ws", "good-sdk"} {
		if s := mustServer(t, r, name); !s.Runnable() {
			t.Errorf("%s should run: %v", name, s.Problems)
		}
	}
}

func TestLoadPermissionsMerged(t *testing.T) {
	f := newFixture(t)
	f.write(f.userFile(), `{"permissions": {"allow": ["mcp__a__*"]}}`)
	f.write(f.localFile(), `{"permissions": {"allow": ["mcp__b__x"], "deny": ["mcp__a__rm"]}}`)
	f.write(filepath.Join(f.managed, ManagedSettingsFile), `{"permissions": {"deny": ["mcp__c__*"]}}`)
	p := f.load().Permissions
	want := policy.Permissions{Allow: []string{"mcp__a__*", "mcp__b__x"}, Deny: []string{"mcp__c__*", "mcp__a__rm"}}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("permissions = %+v, want %+v", p, want)
	}
	if ok, _ := p.Check("mcp__a__rm"); ok {
		t.Error("local deny must beat user allow")
	}
}

func TestLoadRejectsRelativeCwd(t *testing.T) {
	if _, err := Load(LoadOptions{Cwd: "relative", Home: "/home/me"}); err == nil {
		t.Error("want an error for a relative Cwd")
	}
	for _, home := range []string{"", "home"} {
		if _, err := Load(LoadOptions{Cwd: "/work", Home: home}); !errors.Is(err, model.ErrInvalid) {
			t.Errorf("Home %q: err = %v, want ErrInvalid (servers outside the project start there)", home, err)
		}
	}
}

func TestLoadResolvesRelativeCwd(t *testing.T) {
	f := newFixture(t)
	f.env["SUB"] = "tools"
	abs := rooted("/opt/srv")
	f.write(f.projectFile(), servers(
		"rel", `{"command":"x","cwd":"${SUB}/bin"}`,
		"home", `{"command":"x","cwd":"~/work"}`,
		"abs", `{"command":"x","cwd":"`+filepath.ToSlash(abs)+`"}`,
		"none", `{"command":"x"}`,
	))
	r := f.load(`{"mcpServers":{"inline":{"command":"x","cwd":"here"}}}`)
	for name, want := range map[string]string{
		"rel":    filepath.Join(f.proj, "tools", "bin"),
		"home":   filepath.Join(f.home, "work"),
		"abs":    abs,
		"none":   f.proj,
		"inline": filepath.Join(f.cwd, "here"),
	} {
		if s := mustServer(t, r, name); s.Config.Cwd != want {
			t.Errorf("%s: cwd %q, want %q", name, s.Config.Cwd, want)
		}
	}
	if s := mustServer(t, r, "rel"); s.Raw.Cwd != "${SUB}/bin" {
		t.Errorf("Raw must keep what was written: %q", s.Raw.Cwd)
	}
}

// A settings file that exists but cannot be parsed may hold deny rules:
// rather than let them silently stop applying, every tool is denied, the
// rule naming the file. The servers themselves still load.
func TestLoadPermissionsFailClosedOnUnreadableSettings(t *testing.T) {
	for _, tc := range []struct {
		name string
		path func(f *fixture) string
	}{
		{"user", func(f *fixture) string { return f.userFile() }},
		{"local", func(f *fixture) string { return f.localFile() }},
		{"managed", func(f *fixture) string { return filepath.Join(f.managed, ManagedSettingsFile) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.write(f.projectFile(), servers("repo", `{"command":"x"}`))
			broken := f.write(tc.path(f), `{"permissions": {"deny": ["mcp__repo__rm"]`)
			r := f.load()
			mustServer(t, r, "repo")
			ok, rule := r.Permissions.Check("mcp__repo__ls")
			if want := broken + ":1:"; ok || !strings.HasPrefix(rule, want) || !strings.HasSuffix(rule, "every tool is denied until it is fixed") {
				t.Errorf("Check = %v %q, want false, leading with %q", ok, rule, want)
			}
		})
	}
	f := newFixture(t)
	f.write(f.localFile(), `{"permissions": {"deny": ["mcp__repo__rm"]}}`)
	if p := f.load().Permissions; len(p.Unreadable) != 0 {
		t.Errorf("readable settings marked unreadable: %+v", p.Unreadable)
	}
}
