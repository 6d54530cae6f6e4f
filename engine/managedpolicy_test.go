package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestManagedPolicyFollowsTheLoadedConfig: the policy the engine hands
// out for mcpdeck's own programs (the TUI's browser opener) is the managed
// policy of the configuration it loaded.
func TestManagedPolicyFollowsTheLoadedConfig(t *testing.T) {
	e := realEngine(t, map[string]any{}, nil, func(o *Options) {
		policy := `{"deniedMcpServers": [{"serverCommand": ["*"]}]}`
		if err := os.WriteFile(filepath.Join(o.Load.ManagedDir, model.ManagedSettingsFile), []byte(policy), 0o600); err != nil {
			t.Fatal(err)
		}
	})
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	prog, err := model.ResolveProgram(exe, nil, nil, "/", os.LookupEnv)
	if err != nil {
		t.Fatal(err)
	}
	if d := e.ManagedPolicy().Judge("", prog); d.Allowed || d.Rule != `deniedMcpServers: serverCommand ["*"]` {
		t.Fatalf("judged %+v", d)
	}
}
