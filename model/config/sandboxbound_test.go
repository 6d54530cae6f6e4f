package config

import (
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestPolicyBoundsTheSandbox: a sandboxedMcpServers rule with a maximum
// blocks a definition whose sandbox opens more — a write path outside its
// list (the home directory), the write-project profile it does not name,
// network all or a host it does not cover, a socket it does not list —
// naming the rule and what goes past it; one within it runs. Without a
// maximum, any sandbox satisfies the rule, as before.
func TestPolicyBoundsTheSandbox(t *testing.T) {
	f := newFixture(t)
	f.env["PATH"] = programsOnPath(t, filepath.Join(f.home, "bin"), "npx")
	f.write(f.userFile(), servers(
		"home", `{"command":"npx","sandbox":{"write":["~"],"network":"all"}}`,
		"wp", `{"command":"npx","sandbox":{"profile":"write-project"}}`,
		"all", `{"command":"npx","sandbox":{"network":"all"}}`,
		"host", `{"command":"npx","sandbox":{"network":["api.evil.example"]}}`,
		"port", `{"command":"npx","sandbox":{"network":["api.github.com"]}}`,
		"sock", `{"command":"npx","sandbox":{"sockets":["/run/docker.sock"]}}`,
		"within", `{"command":"npx","sandbox":{"write":["~/work/out"],"network":["api.github.com:443","*.x.github.com:443"]}}`,
		"plain", `{"command":"npx","sandbox":true}`,
	))
	f.write(filepath.Join(f.managed, ManagedSettingsFile), `{"sandboxedMcpServers": [
		{"serverCommand": ["npx", "*"], "maximum": {"write": ["~/work"], "network": ["*.github.com:443"]}}]}`)
	r := f.load()
	const rule = `sandboxedMcpServers: serverCommand ["npx", "*"] (the sandbox opens more than the rule's maximum: `
	beyond := map[string]string{
		"home": "write " + strconv.Quote(f.home) + ")", "wp": "the write-project profile)", "all": "network all)",
		"host": `network "api.evil.example")`, "port": `network "api.github.com")`, "sock": `socket "/run/docker.sock")`,
	}
	if runtime.GOOS == "windows" {
		// Windows has no sandbox, and no drive makes /run/docker.sock a
		// path relative to the definition there.
		delete(beyond, "sock")
	}
	for name, what := range beyond {
		s := mustServer(t, r, name)
		if s.Policy.Allowed || s.Policy.Rule != rule+what || s.Runnable() {
			t.Errorf("%s: allowed %v, rule %q\nwant %q", name, s.Policy.Allowed, s.Policy.Rule, rule+what)
		}
	}
	for _, name := range []string{"within", "plain"} {
		if s := mustServer(t, r, name); !s.Policy.Allowed {
			t.Errorf("%s: %q", name, s.Policy.Rule)
		}
	}

	f.write(filepath.Join(f.managed, ManagedSettingsFile), `{"sandboxedMcpServers": [{"serverCommand": ["npx", "*"]}]}`)
	if s := mustServer(t, f.load(), "home"); !s.Policy.Allowed {
		t.Errorf("no maximum: any sandbox satisfies the rule, got %q", s.Policy.Rule)
	}
}

// TestPolicyMaximumIsStrict: a maximum with an unknown field, a relative
// path or a bad host makes the policy unusable, and every server blocked.
func TestPolicyMaximumIsStrict(t *testing.T) {
	for _, bad := range []string{
		`{"writes": ["/x"]}`, `{"write": ["work"]}`, `{"network": ["https://x"]}`, `{"network": "some"}`,
		`{"profile": "strict"}`, `[]`, `{"sockets": [""]}`,
	} {
		f := newFixture(t)
		f.env["PATH"] = programsOnPath(t, filepath.Join(f.home, "bin"), "npx")
		f.write(f.userFile(), servers("plain", `{"command":"npx","sandbox":true}`))
		f.write(filepath.Join(f.managed, ManagedSettingsFile), `{"sandboxedMcpServers": [{"serverCommand": ["*"], "maximum": `+bad+`}]}`)
		if s := mustServer(t, f.load(), "plain"); s.Policy.Allowed || !strings.Contains(s.Policy.Rule, "cannot be used") {
			t.Errorf("maximum %s: %+v", bad, s.Policy)
		}
	}
}
