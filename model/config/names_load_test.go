package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

func TestLoadRejectsUnusableNames(t *testing.T) {
	f := newFixture(t)
	f.write(f.projectFile(), "{\"mcpServers\": {\n\"\\u001b[31mred\": {\"command\": \"x\"},\n\"all\": {\"command\": \"y\"},\n\"ok\": {\"command\": \"z\"}}}")
	r := f.load()
	for name, want := range map[string]string{"\x1b[31mred": "control character", "all": "reserved"} {
		s := mustServer(t, r, name)
		if len(s.Problems) != 1 || !strings.Contains(s.Problems[0].Error(), want) || s.Runnable() {
			t.Errorf("%q: problems %v, want one about %s", name, s.Problems, want)
		}
		if strings.ContainsRune(s.Problems[0].Error(), 0x1b) {
			t.Errorf("problem text carries a terminal escape: %q", s.Problems[0].Error())
		}
	}
	if ok := mustServer(t, r, "ok"); len(ok.Problems) != 0 {
		t.Errorf("ok: %v", ok.Problems)
	}
}

func TestLoadReportsNormalizedNameClash(t *testing.T) {
	f := newFixture(t)
	f.write(f.userFile(), servers("my.server", `{"command":"a"}`))
	f.write(f.localFile(), servers("my_server", `{"command":"b"}`, "other", `{"command":"c"}`))
	r := f.load()
	if len(r.Servers) != 3 || len(r.Problems) != 1 {
		t.Fatalf("servers %v problems %v", serverNames(r), r.Problems)
	}
	want := `servers "my.server" (user), "my_server" (local) share the tool prefix mcp__my_server__`
	if !strings.Contains(r.Problems[0].Error(), want) {
		t.Errorf("problem %q lacks %q", r.Problems[0].Error(), want)
	}
}

func TestScopePath(t *testing.T) {
	f := newFixture(t)
	for scope, want := range map[model.Scope]string{model.ScopeLocal: f.localFile(), model.ScopeProject: f.projectFile(), model.ScopeUser: f.userFile()} {
		if got, err := ScopePath(f.opts(), scope); err != nil || got != want {
			t.Errorf("%s: %q %v, want %q", scope, got, err, want)
		}
	}
	if _, err := ScopePath(f.opts(), model.ScopePlugin); !errors.Is(err, model.ErrInvalid) {
		t.Errorf("plugin scope: %v", err)
	}
	// A .mcp.json above a nearer .mcpdeck stays the project file, and its
	// directory the project whose private state applies.
	g := newFixture(t)
	g.write(g.projectFile(), "{}")
	g.cwd = filepath.Join(g.proj, "sub")
	g.write(filepath.Join(g.cwd, ".mcpdeck", "settings.local.json"), "{}")
	if got, _ := ScopePath(g.opts(), model.ScopeProject); got != g.projectFile() {
		t.Errorf("project file = %q, want %q", got, g.projectFile())
	}
	if got, _ := ScopePath(g.opts(), model.ScopeLocal); got != g.localFile() {
		t.Errorf("local file = %q", got)
	}
}

// BenchmarkLoad measures loading 500 servers spread over user, project and
// local settings: Load runs before the first TUI frame's data arrives.
func BenchmarkLoad(b *testing.B) {
	f := newFixture(b)
	var kv [3][]string
	for i := range 500 {
		kv[i%3] = append(kv[i%3], fmt.Sprintf("srv-%03d", i),
			fmt.Sprintf(`{"command":"npx","args":["-y","pkg-%d"],"env":{"TOKEN":"${TOKEN:-x}"}}`, i))
	}
	for i, p := range []string{f.userFile(), f.projectFile(), f.localFile()} {
		f.write(p, servers(kv[i]...))
	}
	opts := f.opts()
	b.ResetTimer()
	for b.Loop() {
		r, err := Load(opts)
		if err != nil || len(r.Servers) != 500 {
			b.Fatalf("%v %d", err, len(r.Servers))
		}
	}
}
