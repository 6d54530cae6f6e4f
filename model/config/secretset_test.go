package config

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// TestSecretSetHoldsEveryExpandedValue: a server's secret set holds what
// ${VAR} and ${secret:NAME} put into any field — a URL's path, an
// argument no flag names, the working directory, an OAuth client id —
// besides its env and header values, URL credentials and secret flags;
// values of harmless variables (HOME, PATH, XDG_*) are left out, even as
// a whole env value; a problem quoting an expanded value masks it; and
// the run's set is the union of its servers'.
func TestSecretSetHoldsEveryExpandedValue(t *testing.T) {
	f := newFixture(t)
	f.env = map[string]string{
		"KEY": "path-key-6d1f0a", "WORK": "/srv/work-3b9e", "CLIENT": "client-id-77c2a",
		"TOK": "tok-value-2e8d", "REGION": "region-5f3a1", "XDG_DATA_HOME": "/home/me/.data", "PATH": "/usr/bin",
		"BAD": "bad-key-4c0e91",
	}
	f.write(f.userFile(), `{"mcpServers": {
		"api": {"type": "http", "url": "https://me:pw-literal-91@api.example.com/api/${KEY}/mcp?region=${REGION}&api_key=qry-literal-4",
			"headers": {"Authorization": "Bearer ${TOK}", "X-Plain": "hdr-literal-5"},
			"oauth": {"clientId": "${CLIENT}"}},
		"tool": {"command": "srv", "args": ["--out", "${WORK}", "--data", "${XDG_DATA_HOME}/x", "--token", "arg-literal-8"],
			"cwd": "${XDG_DATA_HOME}", "env": {"PATH": "${XDG_DATA_HOME}/bin:${PATH}", "LIT": "env-literal-3"}},
		"broken": {"type": "http", "url": "api/${BAD}/mcp"}}}`)
	r := f.load()
	set := func(name string) []string {
		s, ok := r.Server(name)
		if !ok {
			t.Fatalf("no server %s", name)
		}
		return s.Secrets()
	}
	api, tool := set("api"), set("tool")
	for _, want := range []string{"path-key-6d1f0a", "region-5f3a1", "client-id-77c2a", "tok-value-2e8d", "Bearer tok-value-2e8d", "pw-literal-91", "qry-literal-4", "hdr-literal-5"} {
		if !slices.Contains(api, want) {
			t.Errorf("api's set %q lacks %q", api, want)
		}
	}
	for _, want := range []string{"/srv/work-3b9e", "arg-literal-8", "env-literal-3"} {
		if !slices.Contains(tool, want) {
			t.Errorf("tool's set %q lacks %q", tool, want)
		}
	}
	for _, v := range tool {
		if strings.Contains(v, "/home/me/.data") || strings.Contains(v, "/usr/bin") {
			t.Errorf("tool's set holds %q, from harmless variables", v)
		}
	}

	m := textsafe.NewMasker(r.Secrets()...)
	for in, want := range map[string]string{
		`Post "https://api.example.com/api/path-key-6d1f0a/mcp": EOF`: `Post "https://api.example.com/api/****/mcp": EOF`,
		"writing /srv/work-3b9e/out in /home/me/.data/x":              "writing ****/out in /home/me/.data/x",
		"PATH is /home/me/.data/bin:/usr/bin":                         "PATH is /home/me/.data/bin:/usr/bin",
	} {
		if got := m.Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
	broken, _ := r.Server("broken")
	if len(broken.Problems) != 1 || strings.Contains(broken.Problems[0].Error(), "bad-key-4c0e91") || !strings.Contains(broken.Problems[0].Error(), "api/****/mcp") {
		t.Errorf("broken's problems %v: want one, the value masked", broken.Problems)
	}
}
