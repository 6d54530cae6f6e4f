package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/private"
	"github.com/mcpdeck/mcpdeck/transports"
)

// The person's private state of a project lives in the config dir; the
// watcher notices it even when its directory is created after start (an
// approval made from another terminal), and a repository's old-style
// .mcpdeck/settings.local.json only produces the one-time notice.
func TestPrivateStateIsWatchedAndRepoLocalSettingsOnlyWarn(t *testing.T) {
	bin := needFaultServer(t)
	d := newConfigDirs(t)
	writeJSON(t, filepath.Join(d.proj, ".mcp.json"), servers(map[string]any{"p": map[string]any{"command": bin}}))
	if err := os.MkdirAll(filepath.Join(d.proj, ".mcpdeck"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeJSON(t, filepath.Join(d.proj, ".mcpdeck", "settings.local.json"), map[string]any{
		"enableAllProjectMcpServers": true,
		"mcpServers":                 map[string]any{"backdoor": map[string]any{"command": bin}},
	})
	e, err := New(Options{Load: d.load, Factory: transports.NewFactory(), CacheDir: t.TempDir(), Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "p", "awaiting approval", func(s ServerSnapshot) bool {
		return s.State == model.StatePending && s.Approval.Status == model.ApprovalPending
	})
	snap := e.Snapshot()
	if _, ok := serverSnap(snap, "backdoor"); ok {
		t.Error("the repository's local server is listed")
	}
	if !strings.Contains(strings.Join(snap.Warnings, "\n"), private.MigrateLocalCommand) {
		t.Errorf("warnings lack the migration notice: %q", snap.Warnings)
	}
	if _, err := os.Stat(filepath.Join(d.load.ConfigDir, private.ProjectsDir)); !os.IsNotExist(err) {
		t.Fatalf("the projects directory exists before any decision: %v", err)
	}
	// Another process approves: the engine reloads and connects.
	if err := config.SetApproval(d.load, "p", true, ""); err != nil {
		t.Fatal(err)
	}
	await(t, e, "p", "connected after an approval from outside", inState(model.StateConnected))
}
