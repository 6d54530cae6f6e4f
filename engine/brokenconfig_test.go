package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
)

// TestHalfSavedProjectFileKeepsItsServers: a reload that finds .mcp.json
// broken keeps its servers running as they were (not reopened), publishes
// the file's problem as the project scope's, and once the file is valid
// again the reload applies it as usual.
func TestHalfSavedProjectFileKeepsItsServers(t *testing.T) {
	d := newConfigDirs(t)
	mcpJSON := filepath.Join(d.proj, ".mcp.json")
	writeJSON(t, mcpJSON, servers(map[string]any{"p": map[string]any{"command": "p"}}))
	if err := config.SetApproval(d.load, "p", true, ""); err != nil {
		t.Fatal(err)
	}
	n := newFakeNet()
	n.servers["p"] = demoServer
	n.servers["q"] = demoServer
	e := newEngine(Options{Load: d.load, CacheDir: t.TempDir(), Rand: func() float64 { return 0 }})
	e.open = n.open
	e.errs = testErrorOps()
	e.findProgram = func(model.ServerConfig) error { return nil }
	t.Cleanup(func() { _ = e.Close() })
	ctx := context.Background()
	if err := e.Start(ctx); err != nil {
		t.Fatal(err)
	}
	await(t, e, "p", "connected", inState(model.StateConnected))

	if err := os.WriteFile(mcpJSON, []byte("{\"mcpServers\": {\n  \"p\": {\"command\": \"p\"},\n  \"q\": {\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := e.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	snap := e.Snapshot()
	p, ok := serverSnap(snap, "p")
	if !ok || p.State != model.StateConnected || n.opened("p") != 1 {
		t.Fatalf("after a half-saved edit p is listed %v, %s, opened %d times; want kept, connected, opened once", ok, p.State, n.opened("p"))
	}
	if len(snap.Problems) != 1 || snap.Problems[0].Scope != model.ScopeProject || snap.Problems[0].File != mcpJSON || snap.Problems[0].Line != 4 {
		t.Errorf("problems = %+v, want the project file's, at line 4", snap.Problems)
	}

	writeJSON(t, mcpJSON, servers(map[string]any{"p": map[string]any{"command": "p"}, "q": map[string]any{"command": "q"}}))
	if err := e.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	snap = e.Snapshot()
	if q, ok := serverSnap(snap, "q"); !ok || q.Approval.Status != model.ApprovalPending || len(snap.Problems) != 0 {
		t.Errorf("after the fix: q listed %v (approval %v), problems %+v; want q awaiting approval and no problem", ok, q.Approval.Status, snap.Problems)
	}
	if p, _ := serverSnap(snap, "p"); p.State != model.StateConnected || n.opened("p") != 1 {
		t.Errorf("after the fix p is %s, opened %d times; want untouched", p.State, n.opened("p"))
	}
}

// TestHalfSavedPrivateStateKeepsDecisions: the person's private state of
// the project broken while running keeps its local servers running, the
// approved server approved and the rejected one rejected (none asks again
// as new); its problem is the local scope's, so the UIs head the local
// group with it.
func TestHalfSavedPrivateStateKeepsDecisions(t *testing.T) {
	d := newConfigDirs(t)
	writeJSON(t, filepath.Join(d.proj, ".mcp.json"), servers(map[string]any{"p": map[string]any{"command": "p"}, "r": map[string]any{"command": "r"}}))
	if err := config.SetApproval(d.load, "p", true, ""); err != nil {
		t.Fatal(err)
	}
	if err := config.SetApproval(d.load, "r", false, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := config.AddServer(d.load, model.ScopeLocal, "l", model.ServerConfig{Command: "l"}); err != nil {
		t.Fatal(err)
	}
	n := newFakeNet()
	n.servers["p"], n.servers["l"] = demoServer, demoServer
	e := newEngine(Options{Load: d.load, CacheDir: t.TempDir(), Rand: func() float64 { return 0 }})
	e.open = n.open
	e.errs = testErrorOps()
	e.findProgram = func(model.ServerConfig) error { return nil }
	t.Cleanup(func() { _ = e.Close() })
	ctx := context.Background()
	if err := e.Start(ctx); err != nil {
		t.Fatal(err)
	}
	await(t, e, "p", "connected", inState(model.StateConnected))
	await(t, e, "l", "connected", inState(model.StateConnected))
	r, err := config.Load(d.load)
	if err != nil {
		t.Fatal(err)
	}
	local := r.LocalSettings

	if err := os.WriteFile(local, []byte("{ broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := e.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	snap := e.Snapshot()
	if len(snap.Problems) != 1 || snap.Problems[0].Scope != model.ScopeLocal || snap.Problems[0].File != local {
		t.Errorf("problems = %+v, want the private state's, as the local scope's", snap.Problems)
	}
	for name, want := range map[string]model.ApprovalStatus{"p": model.ApprovalApproved, "r": model.ApprovalRejected, "l": model.ApprovalNotNeeded} {
		s, ok := serverSnap(snap, name)
		if !ok || s.Approval.Status != want {
			t.Errorf("%s listed %v with approval %v, want %v", name, ok, s.Approval.Status, want)
		}
	}
	for _, name := range []string{"p", "l"} {
		if s, _ := serverSnap(snap, name); s.State != model.StateConnected || n.opened(name) != 1 {
			t.Errorf("%s is %s, opened %d times; want untouched", name, s.State, n.opened(name))
		}
	}
}
