package engcmd

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/boxtest"
	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestCallSaysTheSandboxRefused: a sandboxed server refused a connection
// during `call` answers in its own words; mcpdeck says first that its
// sandbox blocked HOST:PORT, and how to allow it.
func TestCallSaysTheSandboxRefused(t *testing.T) {
	boxtest.RequireMechanism(t)
	e := clitest.NewEnv(t)
	// the proxy's unix socket lives under TMPDIR: the environment's own,
	// with a long name, is over a socket path's limit
	short, err := os.MkdirTemp("", "box")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(short) })
	e.Extra = append(e.Extra, "TMPDIR="+short)
	bin := boxtest.BuildBoxServer(t, t.TempDir())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	target := ln.Addr().String()
	raw, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"b": map[string]any{"command": bin, "sandbox": map[string]any{"network": []string{"example.org"}}},
	}})
	settings := filepath.Join(e.Config, "mcpdeck", "settings.json")
	e.WriteFile(settings, string(raw))
	r := e.Run("call", "b", "connect", "target="+target)
	want := "mcpdeck: the sandbox blocked a connection to " + target + " ("
	if !strings.Contains(r.Stderr, want) {
		t.Fatalf("call does not say the sandbox refused %s:\n%s", target, r)
	}
	if fix := `; to allow it, add "` + target + `" to "network" in the server's "sandbox" in ` + settings + " (H in the TUI does it)."; !strings.Contains(r.Stderr, fix) {
		t.Errorf("no way to allow it (%q):\n%s", fix, r)
	}
}
