package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/private"
	"github.com/mcpdeck/mcpdeck/testdata/winetest"
)

func TestUntrustedLocalIsNoticedOncePerContent(t *testing.T) {
	f := newFixture(t)
	path := f.write(filepath.Join(f.proj, ".mcpdeck", "settings.local.json"), servers("old", `{"command":"o"}`))
	r := f.load()
	u := r.Untrusted
	if u == nil || u.Path != path || u.Told || u.Hash == "" {
		t.Fatalf("untrusted = %+v", u)
	}
	if !slices.Contains(r.Files, path) || !slices.Contains(r.Files, filepath.Join(f.cfg, private.ProjectsDir)) {
		t.Errorf("watched files %v lack the untrusted file or the projects dir", r.Files)
	}
	for _, want := range []string{path, "no longer trusts", private.MigrateLocalCommand} {
		if !strings.Contains(u.Notice(), want) {
			t.Errorf("notice %q lacks %q", u.Notice(), want)
		}
	}
	if err := MarkUntrustedTold(f.opts(), *u); err != nil {
		t.Fatal(err)
	}
	if u := f.load().Untrusted; u == nil || !u.Told {
		t.Errorf("after telling: %+v", u)
	}
	if _, err := os.Stat(filepath.Join(f.proj, ".mcpdeck", "settings.local.json")); err != nil {
		t.Errorf("telling must not touch the file: %v", err)
	}
	// New content (a repository update): tell again.
	f.write(path, servers("old", `{"command":"changed"}`))
	if u := f.load().Untrusted; u == nil || u.Told {
		t.Errorf("after a change: %+v", u)
	}
	// Only this project's file can be marked.
	if err := MarkUntrustedTold(f.opts(), private.UntrustedLocal{Path: "/elsewhere/x.json"}); !errors.Is(err, model.ErrInvalid) {
		t.Errorf("marking another path: %v", err)
	}
}

func TestUntrustedLocalThatIsNotAFileIsIgnored(t *testing.T) {
	f := newFixture(t)
	if err := os.MkdirAll(filepath.Join(f.proj, ".mcpdeck", "settings.local.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if u := f.load().Untrusted; u != nil {
		t.Errorf("a directory: %+v", u)
	}
}

func TestMigrateLocal(t *testing.T) {
	f := newFixture(t)
	f.write(f.projectFile(), servers("gh", `{"command":"npx","args":["-y","gh-server"]}`))
	hash := mustServer(t, f.load(), "gh").Hash
	f.write(f.localFile(), `{"mcpServers": {"kept": {"command": "mine"}}, "permissions": {"allow": ["mcp__kept__*"]}}`)
	old := f.write(filepath.Join(f.proj, ".mcpdeck", "settings.local.json"), `{
  "mcpServers": {"tool": {"command": "t", "cwd": "sub", "x-unknown": 1}, "kept": {"command": "theirs"}},
  "approvedMcpjsonServers": {"gh": {"hash": "`+hash+`"}},
  "disabledMcpServers": ["tool"],
  "permissions": {"allow": ["mcp__gh__read"], "deny": ["mcp__gh__rm"]}
}`)
	opts := f.opts()

	m, err := ReadUntrustedLocal(opts)
	if err != nil {
		t.Fatal(err)
	}
	if m.From != old || m.To != f.localFile() || !slices.Equal(m.ServerNames(), []string{"kept", "tool"}) ||
		!slices.Equal(m.Approved, []string{"gh"}) || !slices.Equal(m.Disabled, []string{"tool"}) ||
		!slices.Equal(m.Permissions.Allow, []string{"mcp__gh__read"}) {
		t.Fatalf("shown: %+v", m)
	}
	// Reading changed nothing.
	if r := f.load(); mustServer(t, r, "gh").Approval.Status != model.ApprovalPending {
		t.Fatal("reading approved")
	}

	// The file changed after it was shown: nothing moves.
	f.write(old, strings.Replace(f.read(old), `"t"`, `"t2"`, 1))
	if _, err := MigrateLocal(opts, m.Hash); !errors.Is(err, model.ErrInvalid) {
		t.Fatalf("stale hash: %v", err)
	}
	if _, ok := f.load().Server("tool"); ok {
		t.Fatal("a stale migration moved servers")
	}

	m, err = ReadUntrustedLocal(opts)
	if err != nil {
		t.Fatal(err)
	}
	done, err := MigrateLocal(opts, m.Hash)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(done.Skipped, []string{"mcpServers.kept"}) {
		t.Errorf("skipped = %v", done.Skipped)
	}
	if _, err := os.Stat(filepath.Dir(old)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the .mcpdeck directory is still there: %v", err)
	}
	r := f.load()
	if r.Untrusted != nil {
		t.Errorf("untrusted after migration: %+v", r.Untrusted)
	}
	tool := mustServer(t, r, "tool")
	if tool.Scope != model.ScopeLocal || tool.Enabled || tool.Config.Cwd != filepath.Join(f.proj, "sub") || tool.Raw.Extra["x-unknown"] == nil {
		t.Errorf("tool: scope %s enabled %v cwd %s extra %v", tool.Scope, tool.Enabled, tool.Config.Cwd, tool.Raw.Extra)
	}
	if s := mustServer(t, r, "kept"); s.Config.Command != "mine" {
		t.Errorf("the private definition was replaced: %s", s.Config.Command)
	}
	if s := mustServer(t, r, "gh"); s.Approval.Status != model.ApprovalApproved {
		t.Errorf("gh: %+v", s.Approval)
	}
	if !slices.Equal(r.Permissions.Allow, []string{"mcp__kept__*", "mcp__gh__read"}) || !slices.Equal(r.Permissions.Deny, []string{"mcp__gh__rm"}) {
		t.Errorf("permissions: %+v", r.Permissions)
	}
	if !strings.Contains(f.read(f.localFile()), `"project": "`) {
		t.Errorf("the private state does not name its project:\n%s", f.read(f.localFile()))
	}
	if _, err := ReadUntrustedLocal(opts); !errors.Is(err, model.ErrNotFound) {
		t.Errorf("nothing left to migrate: %v", err)
	}
}

func TestPrivateStateFollowsTheCanonicalProjectPath(t *testing.T) {
	f := newFixture(t)
	f.write(f.projectFile(), servers("gh", `{"command":"gh"}`))
	link := filepath.Join(filepath.Dir(f.home), "link")
	if err := winetest.Symlink(t, f.proj, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := SetApproval(f.opts(), "gh", true, ""); err != nil {
		t.Fatal(err)
	}
	f.cwd = link
	if s := mustServer(t, f.load(), "gh"); s.Approval.Status != model.ApprovalApproved {
		t.Errorf("through a symlink: %+v", s.Approval)
	}
	other := newFixture(t)
	if private.StatePath(filepath.Join(f.cfg, private.ProjectsDir), other.proj) == f.localFile() {
		t.Error("two projects share one state file")
	}
	if got := private.StatePath("relative", f.proj); got != "" {
		t.Errorf("a relative config dir: %q", got)
	}
	if err := SetApproval(LoadOptions{Cwd: f.proj, Home: f.home}, "gh", true, ""); !errors.Is(err, model.ErrInvalid) {
		t.Errorf("no config dir: %v", err)
	}
}
