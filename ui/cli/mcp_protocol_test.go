package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	modelcache "github.com/mcpdeck/mcpdeck/model/cache"
)

func TestMCPGetShowsProtocol(t *testing.T) {
	e := newCLIEnv(t)
	cache := filepath.Join(e.home, ".cache") // XDG_CACHE_HOME of the runs
	e.ok("mcp", "add", "-s", "user", "plain", "--", "server-a")
	e.ok("mcp", "add-json", "-s", "user", "pinned", `{"command":"server-b","protocolVersion":"2025-06-18"}`)

	if out := e.ok("mcp", "get", "plain").stdout; !strings.Contains(out, "Protocol:       negotiated on connect: 2026-07-28") {
		t.Fatalf("nothing remembered:\n%s", out)
	}
	if out := e.ok("mcp", "get", "pinned").stdout; !strings.Contains(out, "Protocol:       2025-06-18 (pinned by protocolVersion)") {
		t.Fatalf("pinned:\n%s", out)
	}
	var v struct{ Hash string }
	if err := json.Unmarshal([]byte(e.ok("mcp", "get", "plain", "--json").stdout), &v); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(cache, "mcpdeck", modelcache.ProtocolMemoryFile)
	if err := modelcache.RememberProtocol(path, v.Hash, "2026-07-28", time.Now()); err != nil {
		t.Fatal(err)
	}
	if out := e.ok("mcp", "get", "plain").stdout; !strings.Contains(out, "Protocol:       2026-07-28 (negotiated last time") {
		t.Fatalf("remembered:\n%s", out)
	}
	var doc struct {
		Servers []struct{ Name, ProtocolVersion string }
	}
	if err := json.Unmarshal([]byte(e.ok("mcp", "list", "--no-connect", "--json").stdout), &doc); err != nil {
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
