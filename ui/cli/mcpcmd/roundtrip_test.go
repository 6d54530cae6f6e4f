package mcpcmd

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

func TestRoundTripEveryScope(t *testing.T) {
	t.Parallel()
	for _, scope := range []string{"local", "user", "project"} {
		t.Run(scope, func(t *testing.T) {
			t.Parallel()
			e := clitest.NewEnv(t)
			r := e.OK("mcp", "add", "-s", scope, "-e", "TOKEN=${GH_TOKEN}", "gh", "--", "npx", "-y", "@modelcontextprotocol/server-github")
			if !strings.Contains(r.Stdout, e.ScopeFile(scope)) {
				t.Errorf("add does not say where it wrote: %s", r)
			}
			e.OK("mcp", "add", "--scope", scope, "api", "https://example.com/mcp", "-H", "Authorization: Bearer ${API_TOKEN}",
				"--client-id", "cid", "--callback-port", "8080")
			e.OK("mcp", "add-json", "-s", scope, "sock", `{"type":"ws","url":"wss://example.com/mcp"}`)
			if !strings.Contains(e.ReadFile(e.ScopeFile(scope)), `"gh"`) {
				t.Fatalf("%s does not hold the server", e.ScopeFile(scope))
			}

			servers, _ := e.List()
			for _, n := range []string{"gh", "api", "sock"} {
				if s := servers[n]; s.Scope != scope || s.Source != e.ScopeFile(scope) {
					t.Errorf("%s listed as %+v, want scope %s from %s", n, s, scope, e.ScopeFile(scope))
				}
			}
			wantApproval := "not-needed"
			if scope == "project" {
				wantApproval = "pending"
			}
			gh := e.Get("gh")
			if gh.Transport != "stdio" || gh.Command != "npx" || !reflect.DeepEqual(gh.Args, []string{"-y", "@modelcontextprotocol/server-github"}) ||
				gh.Env["TOKEN"] != "${GH_TOKEN}" || gh.Approval.Status != wantApproval || !gh.Enabled {
				t.Errorf("get gh = %+v", gh)
			}
			api := e.Get("api")
			if api.Transport != "http" || api.URL != "https://example.com/mcp" || api.Headers["Authorization"] != "Bearer ${API_TOKEN}" ||
				api.OAuth == nil || api.OAuth.ClientID != "cid" || api.OAuth.CallbackPort != 8080 {
				t.Errorf("get api = %+v", api)
			}
			if s := e.Get("sock"); s.Transport != "ws" {
				t.Errorf("get sock = %+v", s)
			}
			text := e.OK("mcp", "get", "gh").Stdout
			for _, want := range []string{"Scope:", scope, "Command:", "npx -y @modelcontextprotocol/server-github", "TOKEN=${GH_TOKEN}", "Enabled:", "Policy:"} {
				if !strings.Contains(text, want) {
					t.Errorf("mcp get text lacks %q:\n%s", want, text)
				}
			}

			for _, n := range []string{"gh", "api"} {
				r := e.OK("mcp", "remove", n)
				if !strings.Contains(r.Stdout, "Removed server "+n+" from the "+scope+" scope") {
					t.Errorf("remove output: %s", r)
				}
			}
			e.OK("mcp", "remove", "sock", "-s", scope)
			if servers, _ := e.List(); len(servers) != 0 {
				t.Errorf("after remove, list = %+v", servers)
			}
			e.Fails(1, "mcp", "get", "gh")
		})
	}
}

func TestAddTransportDetection(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"a", "https://example.com/mcp"}, "http"},
		{[]string{"b", "https://example.com/mcp/sse"}, "sse"},
		{[]string{"c", "http://127.0.0.1:9000/sse/"}, "sse"},
		{[]string{"d", "ws://127.0.0.1:9000"}, "ws"},
		{[]string{"e", "wss://example.com/mcp"}, "ws"},
		{[]string{"f", "-t", "sse", "https://example.com/events"}, "sse"},
		{[]string{"g", "--transport", "http", "https://example.com/sse"}, "http"},
		{[]string{"h", "--", "node", "server.js", "--url", "https://x/sse"}, "stdio"},
		{[]string{"i", "-t", "stdio", "--", "python", "-m", "srv"}, "stdio"},
		{[]string{"j", "uvx", "mcp-server-time"}, "stdio"}, // no --: the rest is the command
	}
	for _, tt := range tests {
		e.OK(append([]string{"mcp", "add"}, tt.args...)...)
		if got := e.Get(tt.args[0]).Transport; got != tt.want {
			t.Errorf("mcp add %v: transport %s, want %s", tt.args, got, tt.want)
		}
	}
	if j := e.Get("j"); j.Command != "uvx" || !reflect.DeepEqual(j.Args, []string{"mcp-server-time"}) {
		t.Errorf("j = %+v", j)
	}
}

func TestAddJSON(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.OK("mcp", "add-json", "api", `{"type":"http","url":"https://example.com/mcp","headers":{"X-Key":"${KEY}"},"futureField":{"x":1}}`)
	if s := e.Get("api"); s.Transport != "http" || s.Headers["X-Key"] != "${KEY}" {
		t.Errorf("api = %+v", s)
	}
	if !strings.Contains(e.ReadFile(e.ScopeFile("local")), "futureField") {
		t.Error("an unknown field of add-json was dropped")
	}
	e.OK("mcp", "add-json", "-s", "user", "tool", `{"command":"uvx","args":["mcp-server-time"]}`)
	if s := e.Get("tool"); s.Scope != "user" || s.Transport != "stdio" {
		t.Errorf("tool = %+v", s)
	}
	// not JSON, or not an object: a usage error (exit 2) naming the mistake
	for json, want := range map[string]string{
		`{"type":"http"`: "the JSON ends too early",
		`["x"]`:          "got an array, want an object",
		`{"a":1,}`:       "invalid JSON at character 8",
	} {
		r := e.Fails(2, "mcp", "add-json", "bad", json)
		if !strings.Contains(r.Stderr, want) || !strings.Contains(r.Stderr, "must be a JSON object") {
			t.Errorf("add-json %s: error %q should mention %q", json, r.Stderr, want)
		}
	}
	for json, want := range map[string]string{
		`{"command":"x","args":"-y"}`:           "args",
		`{"type":"stdio"}`:                      "command",
		`{"type":"ws","url":"https://h/x"}`:     "ws",
		`{"type":"pigeon","url":"https://h/x"}`: "pigeon",
	} {
		r := e.Fails(1, "mcp", "add-json", "bad", json)
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("add-json %s: error %q should mention %q", json, r.Stderr, want)
		}
	}
	if _, err := os.Stat(e.ScopeFile("project")); err == nil {
		t.Error("a failed add-json created .mcp.json")
	}
	e.Fails(2, "mcp", "add-json", "only-name")
}

func TestSecretsAreMaskedAndNeverStored(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.OK("mcp", "add", "gh", "-e", "TOKEN=ghp_literal_secret", "-e", "REF=${GH}", "--", "npx", "srv")
	e.Extra = append(e.Extra, "MCPDECK_CLIENT_SECRET=s3cr3t-value")
	r := e.OK("mcp", "add", "api", "https://example.com/mcp", "-H", "X-Api-Key: abc123secret", "--client-id", "app", "--client-secret")
	if !strings.Contains(r.Stdout, "Stored the client secret of api") {
		t.Errorf("--client-secret did not say where the secret went: %s", r)
	}
	if strings.Contains(r.Stdout+r.Stderr, "s3cr3t-value") {
		t.Errorf("the client secret was printed: %s", r)
	}
	for _, f := range []string{e.ScopeFile("local")} {
		if strings.Contains(e.ReadFile(f), "s3cr3t-value") {
			t.Fatal("the client secret was written to config")
		}
	}
	for _, args := range [][]string{{"mcp", "get", "gh"}, {"mcp", "get", "gh", "--json"}, {"mcp", "get", "api"}, {"mcp", "get", "api", "--json"}, {"mcp", "list", "--no-connect", "--json"}} {
		out := e.OK(args...).Stdout
		if strings.Contains(out, "ghp_literal_secret") || strings.Contains(out, "abc123secret") {
			t.Errorf("%v shows a secret:\n%s", args, out)
		}
		if !strings.Contains(out, "****") {
			t.Errorf("%v shows no masked value:\n%s", args, out)
		}
	}
	if s := e.Get("gh"); s.Env["REF"] != "${GH}" {
		t.Errorf("a ${VAR} reference should stay visible: %+v", s.Env)
	}
}

func TestGlobalFlagsBeforeOrAfterSubcommand(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	inline := `{"mcpServers":{"dyn":{"command":"echo"}}}`
	file := e.Proj + "/extra.json"
	e.WriteFile(file, `{"mcpServers":{"fromfile":{"type":"http","url":"https://example.com/mcp"}}}`)
	for _, args := range [][]string{
		{"--mcp-config", inline, "--mcp-config", "extra.json", "--json", "mcp", "list", "--no-connect"},
		{"mcp", "--mcp-config", inline, "list", "--no-connect", "--json", "--mcp-config", file},
		{"mcp", "list", "--no-connect", "--json", "--mcp-config=" + inline, "--mcp-config=extra.json"},
	} {
		r := e.OK(args...)
		for _, want := range []string{`"name": "dyn"`, `"name": "fromfile"`, `"scope": "dynamic"`} {
			if !strings.Contains(r.Stdout, want) {
				t.Errorf("%v: output lacks %s:\n%s", args, want, r)
			}
		}
	}
	e.OK("--elicit", "decline", "mcp", "list", "--no-connect")
	e.OK("mcp", "list", "--no-connect", "--elicit=accept-defaults")
}
