package config

import (
	"path/filepath"
	"slices"
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
