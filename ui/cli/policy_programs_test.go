package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
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
	e := newCLIEnv(t)
	marker := filepath.Join(t.TempDir(), "ran")
	e.write(filepath.Join(e.managed, "managed-settings.json"), `{"deniedMcpServers": [{"serverCommand": ["*"]}]}`)
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"r": map[string]any{
		"type": "http", "url": "http://127.0.0.1:9/mcp", "headersHelper": "touch " + textsafe.QuoteArg(marker) + "; echo '{}'",
	}}})
	r := e.run("--mcp-config", string(cfg), "call", "r", "tool", "{}")
	if r.code == 0 || !strings.Contains(r.stderr, `/bin/sh not run: managed policy forbids it (deniedMcpServers: serverCommand ["*"])`) {
		t.Errorf("the refusal does not name the rule:\n%s", r)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the headersHelper ran")
	}
}
