package mcpcmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	modelcache "github.com/mcpdeck/mcpdeck/model/cache"
	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

func TestMCPGetShowsProtocol(t *testing.T) {
	e := clitest.NewEnv(t)
	cache := filepath.Join(e.Home, ".cache") // XDG_CACHE_HOME of the runs
	e.OK("mcp", "add", "-s", "user", "plain", "--", "server-a")
	e.OK("mcp", "add-json", "-s", "user", "pinned", `{"command":"server-b","protocolVersion":"2025-06-18"}`)

	if out := e.OK("mcp", "get", "plain").Stdout; !strings.Contains(out, "Protocol:       negotiated on connect: 2026-07-28") {
		t.Fatalf("nothing remembered:\n%s", out)
	}
	if out := e.OK("mcp", "get", "pinned").Stdout; !strings.Contains(out, "Protocol:       2025-06-18 (pinned by protocolVersion)") {
		t.Fatalf("pinned:\n%s", out)
	}
	var v struct{ Hash string }
	if err := json.Unmarshal([]byte(e.OK("mcp", "get", "plain", "--json").Stdout), &v); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(cache, "mcpdeck", modelcache.ProtocolMemoryFile)
	if err := modelcache.RememberProtocol(path, v.Hash, "2026-07-28", time.Now()); err != nil {
		t.Fatal(err)
	}
	if out := e.OK("mcp", "get", "plain").Stdout; !strings.Contains(out, "Protocol:       2026-07-28 (negotiated last time") {
		t.Fatalf("remembered:\n%s", out)
	}
	var doc struct {
		Servers []struct{ Name, ProtocolVersion string }
	}
	if err := json.Unmarshal([]byte(e.OK("mcp", "list", "--no-connect", "--json").Stdout), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range doc.Servers {
		got[s.Name] = s.ProtocolVersion
	}
	if got["plain"] != "2026-07-28" || got["pinned"] != "2025-06-18" {
		t.Fatalf("list --json protocol versions: %v", got)
	}
}
