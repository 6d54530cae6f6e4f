package cli

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestRoundTripEveryScope(t *testing.T) {
	t.Parallel()
	for _, scope := range []string{"local", "user", "project"} {
		t.Run(scope, func(t *testing.T) {
			t.Parallel()
			e := newCLIEnv(t)
			r := e.ok("mcp", "add", "-s", scope, "-e", "TOKEN=${GH_TOKEN}", "gh", "--", "npx", "-y", "@modelcontextprotocol/server-github")
			if !strings.Contains(r.stdout, e.scopeFile(scope)) {
				t.Errorf("add does not say where it wrote: %s", r)
			}
			e.ok("mcp", "add", "--scope", scope, "api", "https://example.com/mcp", "-H", "Authorization: Bearer ${API_TOKEN}",
				"--client-id", "cid", "--callback-port", "8080")
			e.ok("mcp", "add-json", "-s", scope, "sock", `{"type":"ws","url":"wss://example.com/mcp"}`)
			if !strings.Contains(e.read(e.scopeFile(scope)), `"gh"`) {
				t.Fatalf("%s does not hold the server", e.scopeFile(scope))
			}

			servers, _ := e.list()
			for _, n := range []string{"gh", "api", "sock"} {
				if s := servers[n]; s.Scope != scope || s.Source != e.scopeFile(scope) {
					t.Errorf("%s listed as %+v, want scope %s from %s", n, s, scope, e.scopeFile(scope))
				}
			}
			wantApproval := "not-needed"
			if scope == "project" {
				wantApproval = "pending"
			}
			gh := e.get("gh")
			if gh.Transport != "stdio" || gh.Command != "npx" || !reflect.DeepEqual(gh.Args, []string{"-y", "@modelcontextprotocol/server-github"}) ||
				gh.Env["TOKEN"] != "${GH_TOKEN}" || gh.Approval.Status != wantApproval || !gh.Enabled {
				t.Errorf("get gh = %+v", gh)
			}
			api := e.get("api")
			if api.Transport != "http" || api.URL != "https://example.com/mcp" || api.Headers["Authorization"] != "Bearer ${API_TOKEN}" ||
				api.OAuth == nil || api.OAuth.ClientID != "cid" || api.OAuth.CallbackPort != 8080 {
				t.Errorf("get api = %+v", api)
			}
			if s := e.get("sock"); s.Transport != "ws" {
				t.Errorf("get sock = %+v", s)
			}
			text := e.ok("mcp", "get", "gh").stdout
			for _, want := range []string{"Scope:", scope, "Command:", "npx -y @modelcontextprotocol/server-github", "TOKEN=${GH_TOKEN}", "Enabled:", "Policy:"} {
				if !strings.Contains(text, want) {
					t.Errorf("mcp get text lacks %q:\n%s", want, text)
				}
			}

			for _, n := range []string{"gh", "api"} {
				r := e.ok("mcp", "remove", n)
				if !strings.Contains(r.stdout, "Removed server "+n+" from the "+scope+" scope") {
					t.Errorf("remove output: %s", r)
				}
			}
			e.ok("mcp", "remove", "sock", "-s", scope)
			if servers, _ := e.list(); len(servers) != 0 {
				t.Errorf("after remove, list = %+v", servers)
			}
			e.fails(1, "mcp", "get", "gh")
		})
	}
}

func TestAddTransportDetection(t *testing.T) {
	t.Parallel()
	e := newCLIEnv(t)
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
		e.ok(append([]string{"mcp", "add"}, tt.args...)...)
		if got := e.get(tt.args[0]).Transport; got != tt.want {
			t.Errorf("mcp add %v: transport %s, want %s", tt.args, got, tt.want)
		}
	}
	if j := e.get("j"); j.Command != "uvx" || !reflect.DeepEqual(j.Args, []string{"mcp-server-time"}) {
		t.Errorf("j = %+v", j)
	}
}

func TestAddJSON(t *testing.T) {
	t.Parallel()
	e := newCLIEnv(t)
	e.ok("mcp", "add-json", "api", `{"type":"http","url":"https://example.com/mcp","headers":{"X-Key":"${KEY}"},"futureField":{"x":1}}`)
	if s := e.get("api"); s.Transport != "http" || s.Headers["X-Key"] != "${KEY}" {
		t.Errorf("api = %+v", s)
	}
	if !strings.Contains(e.read(e.scopeFile("local")), "futureField") {
		t.Error("an unknown field of add-json was dropped")
	}
	e.ok("mcp", "add-json", "-s", "user", "tool", `{"command":"uvx","args":["mcp-server-time"]}`)
	if s := e.get("tool"); s.Scope != "user" || s.Transport != "stdio" {
		t.Errorf("tool = %+v", s)
	}
	// not JSON, or not an object: a usage error (exit 2) naming the mistake
	for json, want := range map[string]string{
		`{"type":"http"`: "the JSON ends too early",
		`["x"]`:          "got an array, want an object",
		`{"a":1,}`:       "invalid JSON at character 8",
	} {
		r := e.fails(2, "mcp", "add-json", "bad", json)
		if !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "must be a JSON object") {
			t.Errorf("add-json %s: error %q should mention %q", json, r.stderr, want)
		}
	}
	for json, want := range map[string]string{
		`{"command":"x","args":"-y"}`:           "args",
		`{"type":"stdio"}`:                      "command",
		`{"type":"ws","url":"https://h/x"}`:     "ws",
		`{"type":"pigeon","url":"https://h/x"}`: "pigeon",
	} {
		r := e.fails(1, "mcp", "add-json", "bad", json)
		if !strings.Contains(r.stderr, want) {
			t.Errorf("add-json %s: error %q should mention %q", json, r.stderr, want)
		}
	}
	if _, err := os.Stat(e.scopeFile("project")); err == nil {
		t.Error("a failed add-json created .mcp.json")
	}
	e.fails(2, "mcp", "add-json", "only-name")
}

func TestSecretsAreMaskedAndNeverStored(t *testing.T) {
	t.Parallel()
	e := newCLIEnv(t)
	e.ok("mcp", "add", "gh", "-e", "TOKEN=ghp_literal_secret", "-e", "REF=${GH}", "--", "npx", "srv")
	e.extra = append(e.extra, "MCPDECK_CLIENT_SECRET=s3cr3t-value")
	r := e.ok("mcp", "add", "api", "https://example.com/mcp", "-H", "X-Api-Key: abc123secret", "--client-id", "app", "--client-secret")
	if !strings.Contains(r.stdout, "Stored the client secret of api") {
		t.Errorf("--client-secret did not say where the secret went: %s", r)
	}
	if strings.Contains(r.stdout+r.stderr, "s3cr3t-value") {
		t.Errorf("the client secret was printed: %s", r)
	}
	for _, f := range []string{e.scopeFile("local")} {
		if strings.Contains(e.read(f), "s3cr3t-value") {
			t.Fatal("the client secret was written to config")
		}
	}
	for _, args := range [][]string{{"mcp", "get", "gh"}, {"mcp", "get", "gh", "--json"}, {"mcp", "get", "api"}, {"mcp", "get", "api", "--json"}, {"mcp", "list", "--no-connect", "--json"}} {
		out := e.ok(args...).stdout
		if strings.Contains(out, "ghp_literal_secret") || strings.Contains(out, "abc123secret") {
			t.Errorf("%v shows a secret:\n%s", args, out)
		}
		if !strings.Contains(out, "****") {
			t.Errorf("%v shows no masked value:\n%s", args, out)
		}
	}
	if s := e.get("gh"); s.Env["REF"] != "${GH}" {
		t.Errorf("a ${VAR} reference should stay visible: %+v", s.Env)
	}
}

func TestGlobalFlagsBeforeOrAfterSubcommand(t *testing.T) {
	t.Parallel()
	e := newCLIEnv(t)
	inline := `{"mcpServers":{"dyn":{"command":"echo"}}}`
	file := e.proj + "/extra.json"
	e.write(file, `{"mcpServers":{"fromfile":{"type":"http","url":"https://example.com/mcp"}}}`)
	for _, args := range [][]string{
		{"--mcp-config", inline, "--mcp-config", "extra.json", "--json", "mcp", "list", "--no-connect"},
		{"mcp", "--mcp-config", inline, "list", "--no-connect", "--json", "--mcp-config", file},
		{"mcp", "list", "--no-connect", "--json", "--mcp-config=" + inline, "--mcp-config=extra.json"},
	} {
		r := e.ok(args...)
		for _, want := range []string{`"name": "dyn"`, `"name": "fromfile"`, `"scope": "dynamic"`} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%v: output lacks %s:\n%s", args, want, r)
			}
		}
	}
	e.ok("--elicit", "decline", "mcp", "list", "--no-connect")
	e.ok("mcp", "list", "--no-connect", "--elicit=accept-defaults")
}
