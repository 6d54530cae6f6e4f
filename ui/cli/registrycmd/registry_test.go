package registrycmd

import (
	"net"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
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
	e := clitest.NewEnv(t)
	e.Extra = append(e.Extra, "MCPDECK_REGISTRY_URL="+srv.URL)

	r := e.OK("registry", "search", "file")
	if !strings.Contains(r.Stdout, "io.github.modelcontextprotocol/server-filesystem  2026.1.14  [npm]  Secure file operations") || strings.Count(r.Stdout, "\n") != 1 {
		t.Errorf("search file:\n%s", r.Stdout)
	}
	r = e.OK("registry", "search", "--limit", "1")
	if strings.Count(r.Stdout, "\n") != 1 || !strings.Contains(r.Stderr, "more results") {
		t.Errorf("one page of one:\n%s", r)
	}
	r = e.OK("registry", "search", "--limit", "1", "--all")
	if strings.Count(r.Stdout, "\n") != len(fakeregistry.Servers) || !strings.Contains(r.Stdout, "[oci, remote]") || strings.Contains(r.Stdout, "\x1b") || !strings.Contains(r.Stdout, "Weather red") {
		t.Errorf("all pages:\n%q", r.Stdout)
	}
	r = e.OK("registry", "show", "io.github.github/github-mcp-server")
	if !strings.Contains(r.Stdout, `"identifier": "ghcr.io/github/github-mcp-server"`) {
		t.Errorf("show:\n%s", r.Stdout)
	}
	r = e.Fails(1, "registry", "show", "io.github.nobody/nothing@1.0.0")
	if !strings.Contains(r.Stderr, "not in the registry (try: mcpdeck registry search nothing)") {
		t.Errorf("unknown server: %s", r.Stderr)
	}
}

// TestUnreachableRegistrySaysWhatToDo: with nothing listening at
// MCPDECK_REGISTRY_URL, registry search and show, and mcp add --registry,
// fail with exit 1 and the one sentence, in full: where mcpdeck looked and
// what to set.
func TestUnreachableRegistrySaysWhatToDo(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "http://" + ln.Addr().String()
	_ = ln.Close()
	e := clitest.NewEnv(t)
	e.Extra = append(e.Extra, "MCPDECK_REGISTRY_URL="+u)
	want := "mcpdeck: could not reach the MCP Registry at " + u + " (offline?); set MCPDECK_REGISTRY_URL to use another.\n"
	for _, args := range [][]string{
		{"registry", "search", "files"},
		{"registry", "show", "io.github.modelcontextprotocol/server-filesystem"},
		{"mcp", "add", "--registry", "io.github.modelcontextprotocol/server-filesystem"},
	} {
		if r := e.Fails(1, args...); r.Stderr != want {
			t.Errorf("%v: stderr %q, want %q", args, r.Stderr, want)
		}
	}
}
