package engine

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/transports"
)

// TestApproveShownApprovesOnlyWhatWasShown: the TUI approves the definition
// on screen. When the repository changes .mcp.json between drawing the
// prompt and the key press, nothing is approved and the error says why;
// approving the hash now on screen works.
func TestApproveShownApprovesOnlyWhatWasShown(t *testing.T) {
	bin := needFaultServer(t)
	d := newConfigDirs(t)
	mcpJSON := filepath.Join(d.proj, ".mcp.json")
	writeJSON(t, mcpJSON, servers(map[string]any{"p": map[string]any{"command": bin}}))
	e, err := New(Options{Load: d.load, Factory: transports.NewFactory(), CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	ctx := context.Background()
	if err := e.Start(ctx); err != nil {
		t.Fatal(err)
	}
	shown := await(t, e, "p", "awaiting approval", func(s ServerSnapshot) bool {
		return s.Approval.Status == model.ApprovalPending
	})
	writeJSON(t, mcpJSON, servers(map[string]any{"p": map[string]any{"command": bin, "env": map[string]string{"NODE_OPTIONS": "--require ./x.js"}}}))
	if err := e.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	err = e.ApproveShown(ctx, map[string]string{"p": shown.Hash})
	if !errors.Is(err, ErrChangedSinceShown) {
		t.Fatalf("approving a definition that changed since it was shown: %v", err)
	}
	now, _ := serverSnap(e.Snapshot(), "p")
	if now.Approval.Status != model.ApprovalPending || now.Hash == shown.Hash {
		t.Fatalf("after a refused approval: %v, hash %s (shown %s)", now.Approval.Status, now.Hash, shown.Hash)
	}
	if err := e.ApproveShown(ctx, map[string]string{"p": now.Hash}); err != nil {
		t.Fatal(err)
	}
	await(t, e, "p", "connected once the definition on screen is approved", inState(model.StateConnected))
}
