package config

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestPolicy(t *testing.T) {
	cfgs := []string{
		"github", `{"command":"npx","args":["-y","@company/mcp-github"]}`,
		"gh-extra", `{"command":"npx","args":["-y","@company/mcp-github","--verbose"]}`,
		"random", `{"command":"npx","args":["-y","random-server"]}`,
		"corp", `{"type":"http","url":"https://api.company.com/mcp"}`,
		"evil", `{"type":"sse","url":"https://x.evil.com/sse"}`,
		"untrusted", `{"type":"http","url":"https://api.company.com/other"}`,
		"my.tool", `{"command":"tool"}`,
		"runner", `{"command":"python","args":["-m","srv","--port","1"]}`,
		"ghost", `{"command":"ghost","args":["-y","random-server"]}`,
		"ghost-path", `{"command":"sh","args":["-c","x"],"env":{"PATH":"/nonexistent"}}`,
		"boxed", `{"command":"npx","args":["-y","random-server"],"sandbox":true}`,
	}
	for _, tc := range []struct {
		name   string
		policy string
		want   map[string]string // server → "allow|deny: rule" ("allow: " = allowed, no rule)
	}{
		{
			name:   "no policy",
			policy: ``,
			want:   map[string]string{"github": "allow: ", "evil": "allow: "},
		},
		{
			name: "allow and deny lists",
			policy: `{
  "allowedMcpServers": [
    {"serverName": "my_tool"},
    {"serverUrl": "https://*.company.com/*"},
    {"serverCommand": ["npx", "-y", "@company/mcp-*"]},
    {"serverCommand": ["python", "-m", "srv", "*"]}
  ],
  "deniedMcpServers": [
    {"serverName": "untrusted"},
    {"serverUrl": "https://*.evil.com/*"}
  ]}`,
			want: map[string]string{
				"github":    `allow: allowedMcpServers: serverCommand ["npx", "-y", "@company/mcp-*"]`,
				"gh-extra":  "deny: allowedMcpServers: not listed",
				"random":    "deny: allowedMcpServers: not listed",
				"corp":      `allow: allowedMcpServers: serverUrl "https://*.company.com/*"`,
				"evil":      `deny: deniedMcpServers: serverUrl "https://*.evil.com/*"`,
				"untrusted": `deny: deniedMcpServers: serverName "untrusted"`,
				"my.tool":   `allow: allowedMcpServers: serverName "my_tool"`,
				"runner":    `allow: allowedMcpServers: serverCommand ["python", "-m", "srv", "*"]`,
			},
		},
		{
			name:   "deny wins over allow",
			policy: `{"allowedMcpServers": [{"serverName": "corp"}], "deniedMcpServers": [{"serverUrl": "https://api.company.com/*"}]}`,
			want:   map[string]string{"corp": `deny: deniedMcpServers: serverUrl "https://api.company.com/*"`},
		},
		{
			name:   "deny only",
			policy: `{"deniedMcpServers": [{"serverCommand": ["npx", "-y", "random-server"]}]}`,
			want: map[string]string{
				"random": `deny: deniedMcpServers: serverCommand ["npx", "-y", "random-server"]`,
				"github": "allow: ", "corp": "allow: ",
			},
		},
		{
			name:   "a program that is not found satisfies deny rules by its arguments and no allow rule",
			policy: `{"allowedMcpServers": [{"serverCommand": ["*"]}], "deniedMcpServers": [{"serverCommand": ["/usr/bin/*", "-c", "*"]}, {"serverCommand": ["npx", "-y", "random-server"]}]}`,
			want: map[string]string{
				"ghost-path": `deny: deniedMcpServers: serverCommand ["/usr/bin/*", "-c", "*"] (the program is not found)`,
				"ghost":      `deny: deniedMcpServers: serverCommand ["npx", "-y", "random-server"] (the program is not found)`,
				"github":     `allow: allowedMcpServers: serverCommand ["*"]`,
			},
		},
		{
			name:   "an allow list never allows a program that is not found",
			policy: `{"allowedMcpServers": [{"serverCommand": ["*"]}]}`,
			want: map[string]string{
				"ghost":  "deny: allowedMcpServers: not listed (the program is not found)",
				"runner": `allow: allowedMcpServers: serverCommand ["*"]`,
			},
		},
		{
			name:   "empty allow list is a lockdown",
			policy: `{"allowedMcpServers": []}`,
			want:   map[string]string{"github": "deny: allowedMcpServers: not listed", "corp": "deny: allowedMcpServers: not listed"},
		},
		{
			name:   "url rule does not match stdio, command rule does not match remote",
			policy: `{"deniedMcpServers": [{"serverUrl": "*"}, {"serverCommand": ["*"]}]}`,
			want:   map[string]string{"my.tool": `deny: deniedMcpServers: serverCommand ["*"]`, "corp": `deny: deniedMcpServers: serverUrl "*"`},
		},
		{
			name:   "ambiguous entry fails closed",
			policy: `{"deniedMcpServers": [{"serverName": "a", "serverUrl": "b"}]}`,
			want:   map[string]string{"github": "deny: managed-settings.json cannot be used"},
		},
		{
			name:   "a serverUrl pattern with a query fails closed",
			policy: `{"deniedMcpServers": [{"serverUrl": "https://*.evil.com/*?x=*"}]}`,
			want:   map[string]string{"github": "deny: managed-settings.json cannot be used"},
		},
		{
			name:   "a sandbox required of every stdio server",
			policy: `{"sandboxedMcpServers": [{"serverCommand": ["*"]}]}`,
			want: map[string]string{
				"random": `deny: sandboxedMcpServers: serverCommand ["*"] (the server has no sandbox)`,
				"ghost":  `deny: sandboxedMcpServers: serverCommand ["*"] (the server has no sandbox)`,
				"boxed":  "allow: ", "corp": "allow: ",
			},
		},
		{
			name:   "a sandbox required of the servers a rule names",
			policy: `{"sandboxedMcpServers": [{"serverName": "runner"}, {"serverCommand": ["npx", "-y", "random-*"]}]}`,
			want: map[string]string{
				"runner": `deny: sandboxedMcpServers: serverName "runner" (the server has no sandbox)`,
				"random": `deny: sandboxedMcpServers: serverCommand ["npx", "-y", "random-*"] (the server has no sandbox)`,
				"github": "allow: ", "boxed": "allow: ", "my.tool": "allow: ",
			},
		},
		{
			name:   "a deny still wins over a sandbox",
			policy: `{"sandboxedMcpServers": [{"serverCommand": ["*"]}], "deniedMcpServers": [{"serverName": "boxed"}]}`,
			want:   map[string]string{"boxed": `deny: deniedMcpServers: serverName "boxed"`},
		},
		{
			name:   "a serverUrl in sandboxedMcpServers fails closed",
			policy: `{"sandboxedMcpServers": [{"serverUrl": "*"}]}`,
			want:   map[string]string{"boxed": "deny: managed-settings.json cannot be used"},
		},
		{
			name:   "broken policy file fails closed",
			policy: `{"deniedMcpServers": [`,
			want:   map[string]string{"corp": "deny: managed-settings.json cannot be used"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.env["PATH"] = programsOnPath(t, filepath.Join(f.home, "bin"), "npx", "python", "tool", "sh")
			f.write(f.userFile(), servers(cfgs...))
			if tc.policy != "" {
				f.write(filepath.Join(f.managed, ManagedSettingsFile), tc.policy)
			}
			r := f.load()
			for name, want := range tc.want {
				s := mustServer(t, r, name)
				got := "deny: " + s.Policy.Rule
				if s.Policy.Allowed {
					got = "allow: " + s.Policy.Rule
				}
				if !strings.HasPrefix(got, want) || (!strings.HasSuffix(want, "used") && got != want) {
					t.Errorf("%s: %q, want %q", name, got, want)
				}
				if !s.Policy.Allowed && s.Runnable() {
					t.Errorf("%s: blocked by policy but runnable", name)
				}
			}
		})
	}
}

// programsOnPath creates programs of those names in dir and returns dir,
// as a PATH.
func programsOnPath(t *testing.T, dir string, names ...string) string {
	t.Helper()
	for _, n := range names {
		if runtime.GOOS == "windows" {
			n += ".exe"
		}
		writeProgram(t, filepath.Join(dir, n))
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestPolicyURLAttacks loads servers whose URLs dodged a deny or slipped
// through an allow when serverUrl was one glob over the whole string.
func TestPolicyURLAttacks(t *testing.T) {
	f := newFixture(t)
	f.write(f.userFile(), servers(
		"path-trick", `{"type":"http","url":"https://attacker.example/x.corp.example/mcp"}`,
		"query-trick", `{"type":"http","url":"https://attacker.example/?x=.corp.example/"}`,
		"user-trick", `{"type":"http","url":"https://a.corp.example@attacker.example/mcp"}`,
		"garbled", `{"type":"http","url":"https://a.corp.example\\@evil.example/"}`,
		"corp", `{"type":"http","url":"https://api.corp.example/mcp"}`,
		"corp-deep", `{"type":"sse","url":"https://a.b.corp.example/sse"}`,
		"corp-user", `{"type":"http","url":"https://me:pw@api.corp.example/mcp"}`,
		"evil", `{"type":"http","url":"https://a.evil.example/mcp"}`,
		"upper", `{"type":"http","url":"https://a.EVIL.example/mcp"}`,
		"port", `{"type":"http","url":"https://a.evil.example:443/mcp"}`,
		"dot", `{"type":"http","url":"https://a.evil.example./mcp"}`,
		"scheme", `{"type":"http","url":"HTTPS://a.evil.example/mcp"}`,
		"other", `{"type":"http","url":"https://other.example/mcp"}`,
	))
	for _, tc := range []struct {
		policy string
		want   map[string]bool
	}{
		{
			policy: `{"allowedMcpServers": [{"serverUrl": "https://*.corp.example/*"}]}`,
			want: map[string]bool{
				"path-trick": false, "query-trick": false, "user-trick": false, "garbled": false,
				"corp": true, "corp-deep": true, "corp-user": true,
			},
		},
		{
			policy: `{"deniedMcpServers": [{"serverUrl": "https://*.evil.example/*"}]}`,
			want: map[string]bool{
				"evil": false, "upper": false, "port": false, "dot": false, "scheme": false, "garbled": false,
				"other": true, "corp": true,
			},
		},
	} {
		f.write(filepath.Join(f.managed, ManagedSettingsFile), tc.policy)
		r := f.load()
		for name, want := range tc.want {
			if s := mustServer(t, r, name); s.Policy.Allowed != want {
				t.Errorf("%s: %s (%s): allowed = %v, want %v (%s)", tc.policy, name, s.Config.URL, s.Policy.Allowed, want, s.Policy.Rule)
			}
		}
	}
}
