package config

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestBrokenProjectFileKeepsPreviousServers: a half-saved .mcp.json keeps
// the servers the load it replaces read from it (same definition, same
// approval, still shadowing the user's server of the same name), carries
// its problem as the project scope's, and stays kept over further broken
// loads; once the file is valid again its servers are what it says. A
// first load (no Previous) has no servers to keep.
func TestBrokenProjectFileKeepsPreviousServers(t *testing.T) {
	f := newFixture(t)
	f.write(f.userFile(), servers("a", `{"command":"user-a"}`, "u", `{"command":"u"}`))
	f.write(f.projectFile(), servers("a", `{"command":"proj-a"}`, "p", `{"command":"p"}`))
	if err := SetApproval(f.opts(), "p", true, ""); err != nil {
		t.Fatal(err)
	}
	good := f.load()
	p := mustServer(t, good, "p")
	if p.Approval.Status != model.ApprovalApproved {
		t.Fatalf("p not approved: %v", p.Approval)
	}

	broken := "{\"mcpServers\": {\n  \"a\": {\"command\": \"proj-a\"},\n  \"p\": {\"command\": \"p\"\n"
	f.write(f.projectFile(), broken)
	opts := f.opts()
	opts.Previous = good
	kept, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	checkProjectProblem(t, kept, f.projectFile())
	if got := mustServer(t, kept, "p"); got.Hash != p.Hash || got.Approval.Status != model.ApprovalApproved || !got.Runnable() {
		t.Errorf("kept p = hash %s approval %v runnable %v, want it as it was", got.Hash, got.Approval, got.Runnable())
	}
	if a := mustServer(t, kept, "a"); a.Scope != model.ScopeProject || a.Config.Command != "proj-a" {
		t.Errorf("a = %s %q: the kept project definition must still shadow the user's", a.Scope, a.Config.Command)
	}
	mustServer(t, kept, "u")

	opts.Previous = kept // still broken at the next reload
	again, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	mustServer(t, again, "p")

	first := f.load() // a first load keeps nothing
	checkProjectProblem(t, first, f.projectFile())
	if _, ok := first.Server("p"); ok {
		t.Error("a first load invented project servers")
	}
	if a := mustServer(t, first, "a"); a.Scope != model.ScopeUser {
		t.Errorf("a first load shows a from %s", a.Scope)
	}

	f.write(f.projectFile(), servers("q", `{"command":"q"}`))
	opts.Previous = again
	fixed, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if names := serverNames(fixed); !slices.Equal(names, []string{"a", "q", "u"}) || len(fixed.Problems) != 0 {
		t.Errorf("after the fix: servers %v problems %v, want a q u and none", names, fixed.Problems)
	}
}

// TestServersNotAnObjectKeepsPreviousServers: "mcpServers" that is not an
// object leaves the file's servers unknown, like broken JSON.
func TestServersNotAnObjectKeepsPreviousServers(t *testing.T) {
	f := newFixture(t)
	f.write(f.projectFile(), servers("p", `{"command":"p"}`))
	opts := f.opts()
	opts.Previous = f.load()
	f.write(f.projectFile(), `{"mcpServers": ["p"]}`)
	r, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	mustServer(t, r, "p")
	if len(r.Problems) != 1 || r.Problems[0].Scope != model.ScopeProject {
		t.Errorf("problems = %+v, want the project file's", r.Problems)
	}
}

// TestBrokenManagedFileKeepsNothing: managed-mcp.json fails closed even
// over a good previous load; its problem is the enterprise scope's.
func TestBrokenManagedFileKeepsNothing(t *testing.T) {
	f := newFixture(t)
	managed := f.write(filepath.Join(f.managed, ManagedMCPFile), servers("m", `{"command":"m"}`))
	opts := f.opts()
	opts.Previous = f.load()
	mustServer(t, opts.Previous, "m")
	f.write(managed, `{"mcpServers": {`)
	r, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Servers) != 0 || !r.Enterprise {
		t.Errorf("servers %v enterprise %v: a broken managed file must run nothing", serverNames(r), r.Enterprise)
	}
	if len(r.Problems) != 1 || r.Problems[0].Scope != model.ScopeEnterprise {
		t.Errorf("problems = %+v, want the managed file's, as enterprise", r.Problems)
	}
}

// checkProjectProblem requires exactly one problem: the project file's,
// with its scope and place.
func checkProjectProblem(t *testing.T, r *Resolved, file string) {
	t.Helper()
	if len(r.Problems) != 1 {
		t.Fatalf("problems = %+v, want one", r.Problems)
	}
	p := r.Problems[0]
	if p.Scope != model.ScopeProject || p.File != file || p.Line != 4 || p.Server != "" {
		t.Errorf("problem = %+v, want the project file's at line 4", p)
	}
}

// TestBrokenPrivateStateKeepsPastDecisions: the person's private state of
// the project (local servers, approvals, rejections) broken mid-edit is
// the local scope's unreadable file; the decisions and local servers read
// before stay; a first load does not know the decisions, so no project
// server runs and none is asked about as new, each naming the file.
func TestBrokenPrivateStateKeepsPastDecisions(t *testing.T) {
	f := newFixture(t)
	f.write(f.projectFile(), servers("good", `{"command":"good"}`, "bad", `{"command":"bad"}`))
	if err := SetApproval(f.opts(), "good", true, ""); err != nil {
		t.Fatal(err)
	}
	if err := SetApproval(f.opts(), "bad", false, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := AddServer(f.opts(), model.ScopeLocal, "loc", model.ServerConfig{Command: "loc"}); err != nil {
		t.Fatal(err)
	}
	good := f.load()
	f.write(f.localFile(), "{ broken")

	opts := f.opts()
	opts.Previous = good
	kept, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept.Problems) != 1 || kept.Problems[0].Scope != model.ScopeLocal || kept.Problems[0].File != f.localFile() || kept.Problems[0].Line != 1 {
		t.Fatalf("problems = %+v, want the private state's, as the local scope's row", kept.Problems)
	}
	if s := mustServer(t, kept, "good"); s.Approval.Status != model.ApprovalApproved || !s.Runnable() {
		t.Errorf("good = %v runnable %v, want still approved", s.Approval.Status, s.Runnable())
	}
	if s := mustServer(t, kept, "bad"); s.Approval.Status != model.ApprovalRejected {
		t.Errorf("bad = %v, want still rejected", s.Approval.Status)
	}
	mustServer(t, kept, "loc")
	opts.Previous = kept // still broken at the next reload
	again, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if s := mustServer(t, again, "bad"); s.Approval.Status != model.ApprovalRejected {
		t.Errorf("at the next reload bad = %v, want still rejected", s.Approval.Status)
	}
	mustServer(t, again, "loc")

	first := f.load()
	for _, name := range []string{"good", "bad"} {
		s := mustServer(t, first, name)
		if s.Approval.Status != model.ApprovalUnknown || s.AwaitsApproval() || s.Runnable() {
			t.Errorf("first load: %s = %v awaits %v runnable %v, want unknown, not asked, not run", name, s.Approval.Status, s.AwaitsApproval(), s.Runnable())
		}
		if len(s.Problems) != 1 || s.Problems[0].File != f.localFile() || !strings.Contains(s.Problems[0].Error(), "your decisions on this project cannot be read") {
			t.Errorf("first load: %s problems %+v, want the private state's", name, s.Problems)
		}
	}
	err = SetApproval(f.opts(), "good", true, "")
	if !errors.Is(err, model.ErrFileUnusable) || !strings.HasPrefix(err.Error(), "invalid: your settings for this project cannot be saved until its file is fixed: invalid JSON") || !strings.Contains(err.Error(), f.localFile()+":1:") {
		t.Errorf("approving with the file broken: %v, want the cause first, then the file", err)
	}
}
