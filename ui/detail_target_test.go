package ui

import (
	"path/filepath"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
)

// TestDetailKeepsTheCommandsQuoting: the detail view shows a command line
// as the words it runs, each quoted as the shell would need it
// (textsafe.QuoteCommand), so `sh -c '…'` reads as one argument after -c,
// not as loose words.
func TestDetailKeepsTheCommandsQuoting(t *testing.T) {
	dir := t.TempDir()
	cfg := model.ServerConfig{Command: "sh", Args: []string{"-c", "exec my-server --name 'a b'"}}
	h := startLive(t, engine.Options{
		Load: config.LoadOptions{
			Cwd: filepath.Join(dir, "home", "p"), Home: filepath.Join(dir, "home"),
			ConfigDir: filepath.Join(dir, "cfg"), ManagedDir: filepath.Join(dir, "managed"),
			LookupEnv: func(string) (string, bool) { return "", false },
		},
		// disabled: nothing is started, the definition is only shown
		Extra:    []model.Server{{Name: "quoted", Raw: cfg, Config: cfg, Enabled: false, Policy: model.PolicyDecision{Allowed: true}}},
		CacheDir: filepath.Join(dir, "cache"),
	}, 100, 30)
	h.until("quoted")
	h.keys("enter")
	h.until("Target", `sh -c 'exec my-server --name '\''a b'\'''`)
}
