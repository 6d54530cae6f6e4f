package cli

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/fakeregistry"
)

// TestRegistrySearchAndShow: search lists matching servers with version
// and how they run, follows pages with --all, and show prints a
// server.json; a name the registry does not know is an error that says what
// to try; a hostile title reaches the terminal without its escapes. A local
// fake registry stands in for the real one.
func TestRegistrySearchAndShow(t *testing.T) {
	srv := httptest.NewServer(fakeregistry.Handler())
	t.Cleanup(srv.Close)
	e := newCLIEnv(t)
	e.extra = append(e.extra, "MCPDECK_REGISTRY_URL="+srv.URL)

	r := e.ok("registry", "search", "file")
	if !strings.Contains(r.stdout, "io.github.modelcontextprotocol/server-filesystem  2026.1.14  [npm]  Secure file operations") || strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("search file:\n%s", r.stdout)
	}
	r = e.ok("registry", "search", "--limit", "1")
	if strings.Count(r.stdout, "\n") != 1 || !strings.Contains(r.stderr, "more results") {
		t.Errorf("one page of one:\n%s", r)
	}
	r = e.ok("registry", "search", "--limit", "1", "--all")
	if strings.Count(r.stdout, "\n") != len(fakeregistry.Servers) || !strings.Contains(r.stdout, "[oci, remote]") || strings.Contains(r.stdout, "\x1b") || !strings.Contains(r.stdout, "Weather red") {
		t.Errorf("all pages:\n%q", r.stdout)
	}
	r = e.ok("registry", "show", "io.github.github/github-mcp-server")
	if !strings.Contains(r.stdout, `"identifier": "ghcr.io/github/github-mcp-server"`) {
		t.Errorf("show:\n%s", r.stdout)
	}
	r = e.fails(1, "registry", "show", "io.github.nobody/nothing@1.0.0")
	if !strings.Contains(r.stderr, "not in the registry (try: mcpdeck registry search nothing)") {
		t.Errorf("unknown server: %s", r.stderr)
	}
}
