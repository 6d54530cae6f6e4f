package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/transports"
)

// configDirs lays out a home with a user settings file and a project.
type configDirs struct {
	load config.LoadOptions
	proj string // project dir (.mcp.json lives here)
}

func newConfigDirs(t *testing.T) configDirs {
	t.Helper()
	dir := t.TempDir()
	d := configDirs{
		load: config.LoadOptions{
			Cwd: filepath.Join(dir, "proj"), Home: dir, ConfigDir: filepath.Join(dir, "cfg"),
			ManagedDir: filepath.Join(dir, "managed"),
			LookupEnv:  func(string) (string, bool) { return "", false },
		},
		proj: filepath.Join(dir, "proj"),
	}
	for _, p := range []string{d.proj, d.load.ConfigDir, d.load.ManagedDir} {
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func servers(m map[string]any) map[string]any { return map[string]any{"mcpServers": m} }

func TestIntegrationConfigActions(t *testing.T) {
	bin := needFaultServer(t)
	d := newConfigDirs(t)
	writeJSON(t, filepath.Join(d.load.ConfigDir, "settings.json"), servers(map[string]any{
		"u": map[string]any{"command": bin},
	}))
	mcpJSON := filepath.Join(d.proj, ".mcp.json")
	writeJSON(t, mcpJSON, servers(map[string]any{"p": map[string]any{"command": bin}}))
	newEng := func() *Engine {
		e, err := New(Options{Load: d.load, Factory: transports.NewFactory(), CacheDir: t.TempDir(), Watch: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = e.Close() })
		if err := e.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		return e
	}
	ctx := context.Background()
	e := newEng()
	await(t, e, "u", "connected", inState(model.StateConnected))
	p := await(t, e, "p", "awaiting approval", func(s ServerSnapshot) bool {
		return s.State == model.StatePending && s.Approval.Status == model.ApprovalPending
	})
	if !strings.Contains(reasonsText(p), "awaiting-approval") || p.Scope != model.ScopeProject {
		t.Fatalf("p: why %v scope %s", reasonsText(p), p.Scope)
	}
	if err := e.Approve(ctx, "p"); err != nil {
		t.Fatal(err)
	}
	await(t, e, "p", "connected after approval", inState(model.StateConnected))

	// Editing .mcp.json is noticed (fsnotify): the changed server asks for
	// approval again with a diff; the user server is left alone.
	writeJSON(t, mcpJSON, servers(map[string]any{"p": map[string]any{"command": bin, "args": []string{"-delay", "1ms"}}}))
	p = await(t, e, "p", "approval changed", func(s ServerSnapshot) bool {
		return s.State == model.StatePending && s.Approval.Status == model.ApprovalChanged
	})
	if !strings.Contains(reasonsText(p), "-delay") {
		t.Errorf("changed approval shows no diff: %v", reasonsText(p))
	}
	if u, _ := serverSnap(e.Snapshot(), "u"); u.State != model.StateConnected || len(u.History) != 1 {
		t.Errorf("u was disturbed: %s, %d transitions", u.State, len(u.History))
	}
	if err := e.Approve(ctx, "all"); err != nil {
		t.Fatal(err)
	}
	await(t, e, "p", "connected after re-approval", inState(model.StateConnected))
	if err := e.Reject(ctx, "p"); err != nil {
		t.Fatal(err)
	}
	await(t, e, "p", "rejected", inState(model.StateDisabled))

	if err := e.Disable(ctx, "u"); err != nil {
		t.Fatal(err)
	}
	u := await(t, e, "u", "disabled", inState(model.StateDisabled))
	if !strings.Contains(reasonsText(u), "disabled-by-you") {
		t.Errorf("u why %v", reasonsText(u))
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}

	// Decisions persist across restarts.
	e = newEng()
	await(t, e, "u", "still disabled", inState(model.StateDisabled))
	await(t, e, "p", "still rejected", inState(model.StateDisabled))
	if err := e.Enable(ctx, "all"); err != nil {
		t.Fatal(err)
	}
	await(t, e, "u", "enabled", inState(model.StateConnected))

	// Removing a server from the file closes it.
	writeJSON(t, filepath.Join(d.load.ConfigDir, "settings.json"), servers(map[string]any{}))
	timeout := time.After(awaitDeadline)
	for {
		if _, ok := serverSnap(e.Snapshot(), "u"); !ok {
			break
		}
		select {
		case <-e.Updates():
		case <-timeout:
			t.Fatal("removed server u is still listed")
		}
	}
}
