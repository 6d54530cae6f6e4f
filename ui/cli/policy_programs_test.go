package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestDenyAllRunsNoHeadersHelper: under deniedMcpServers [["*"]] a remote
// server allowed by its URL still connects through no local program: its
// headersHelper does not run and the connect fails with a sentence naming
// the rule.
func TestDenyAllRunsNoHeadersHelper(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("sh")
	}
	e := clitest.NewEnv(t)
	marker := filepath.Join(t.TempDir(), "ran")
	e.WriteFile(filepath.Join(e.Managed, "managed-settings.json"), `{"deniedMcpServers": [{"serverCommand": ["*"]}]}`)
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"r": map[string]any{
		"type": "http", "url": "http://127.0.0.1:9/mcp", "headersHelper": "touch " + textsafe.QuoteArg(marker) + "; echo '{}'",
	}}})
	r := e.Run("--mcp-config", string(cfg), "call", "r", "tool", "{}")
	if r.Code == 0 || !strings.Contains(r.Stderr, `/bin/sh not run: managed policy forbids it (deniedMcpServers: serverCommand ["*"])`) {
		t.Errorf("the refusal does not name the rule:\n%s", r)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the headersHelper ran")
	}
}
