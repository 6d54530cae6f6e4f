package mcpcmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestAddSandbox: --sandbox writes the default profile, --sandbox=PROFILE
// that profile; list marks the servers, get and --json show the sandbox;
// a profile that does not exist or a remote server is a usage error.
func TestAddSandbox(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.OK("mcp", "add", "--sandbox", "boxed", "--", "false", "pkg")
	e.OK("mcp", "add", "--sandbox=write-project", "editor", "--", "false", "ed")
	e.OK("mcp", "add", "plain", "--", "false", "other")
	file := e.ReadFile(e.ScopeFile("local"))
	if !strings.Contains(file, `"sandbox": true`) || !strings.Contains(file, `"sandbox": {`) || !strings.Contains(file, `"profile": "write-project"`) {
		t.Errorf("local settings:\n%s", file)
	}
	list := e.OK("mcp", "list", "--no-connect").Stdout
	for _, l := range strings.Split(list, "\n") {
		boxed := strings.HasPrefix(l, "boxed ") || strings.HasPrefix(l, "editor ")
		if (boxed || strings.HasPrefix(l, "plain ")) && strings.Contains(l, "stdio, sandboxed") != boxed {
			t.Errorf("list row %q", l)
		}
	}
	if live := e.Run("mcp", "list").Stdout; !strings.Contains(live, "boxed: false pkg (stdio, sandboxed)") || !strings.Contains(live, "plain: false other (stdio) ") {
		t.Errorf("live list:\n%s", live)
	}
	if out := e.OK("mcp", "get", "boxed").Stdout; !strings.Contains(out, "Sandbox:") || !strings.Contains(out, "default profile · network none") {
		t.Errorf("get boxed:\n%s", out)
	}
	if js := e.OK("mcp", "get", "editor", "--json").Stdout; !strings.Contains(js, `"sandbox": {`) {
		t.Errorf("get --json:\n%s", js)
	}
	for _, bad := range [][]string{
		{"mcp", "add", "--sandbox=strict", "x", "--", "npx"},
		{"mcp", "add", "--sandbox", "y", "https://example.com/mcp"},
	} {
		if r := e.Run(bad...); r.Code != 2 || !strings.Contains(r.Stderr, "--sandbox") {
			t.Errorf("%v: %s", bad, r)
		}
	}
}

// TestPolicyRequiringASandboxIsShown: a stdio server without a sandbox is
// listed blocked with the sandboxedMcpServers rule; one with a sandbox is
// not.
func TestPolicyRequiringASandboxIsShown(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.WriteFile(filepath.Join(e.Managed, "managed-settings.json"), `{"sandboxedMcpServers": [{"serverCommand": ["*"]}]}`)
	e.OK("mcp", "add", "open", "--", "x")
	e.OK("mcp", "add", "--sandbox", "boxed", "--", "x")
	if p := e.Get("open").Policy; p.Allowed || p.Rule != `sandboxedMcpServers: serverCommand ["*"] (the server has no sandbox)` {
		t.Errorf("open: %+v", p)
	}
	if p := e.Get("boxed").Policy; !p.Allowed {
		t.Errorf("boxed: %+v", p)
	}
	if out := e.OK("mcp", "list", "--no-connect").Stdout; !strings.Contains(out, "blocked (sandboxedMcpServers") {
		t.Errorf("list:\n%s", out)
	}
}

// TestGetShowsTheEffectiveSandbox: mcp get (and --json) show what the
// sandbox opens on this machine, ${VAR}s expanded and links resolved: the
// project, what stays read-only inside a write path, and each path asked
// for that it does not open, with why; "read": ["~/.ssh"] is a config
// problem, never "Config problems: none". Started in the home directory,
// the sandbox has no project, and says so.
func TestGetShowsTheEffectiveSandbox(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.WriteFile(filepath.Join(e.Proj, ".mcp.json"), `{}`)
	e.WriteFile(filepath.Join(e.Home, ".ssh", "id_rsa"), "key")
	if err := os.Symlink("..", filepath.Join(e.Proj, "assets")); err != nil {
		t.Fatal(err)
	}
	e.WriteFile(e.ScopeFile("user"), `{"mcpServers": {"boxed": {"command": "/bin/sh", "cwd": "${PROJECT_DIR}", "sandbox": {
		"profile": "write-project", "read": ["~/.ssh"], "write": ["${PROJECT_DIR}/assets", "${PROJECT_DIR}/out"]}}}}`)
	e.WriteFile(filepath.Join(e.Proj, "out", "x"), "")
	out := e.OK("mcp", "get", "boxed", "--no-connect").Stdout
	for _, want := range []string{
		"Sandbox on this machine", "Project:", "~/proj (writable)",
		"~/.ssh: never opened", "~/proj/assets → ~: outside the project",
		"Read-only inside:", ".git*", ".envrc*", "Network:",
		"Config problems:", "sandbox: ~/.ssh: never opened",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("get lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Config problems: none") {
		t.Errorf("a dropped path reads as no problem:\n%s", out)
	}
	js := e.OK("mcp", "get", "boxed", "--json", "--no-connect").Stdout
	for _, want := range []string{`"sandboxProfile": {`, `"project": "` + e.Proj + `"`, `"reason": "never opened"`, `"cannotBeCreated": [`} {
		if !strings.Contains(js, want) {
			t.Errorf("--json lacks %s:\n%s", want, js)
		}
	}
	home := e.RunIn(e.Home, "mcp", "get", "boxed", "--no-connect").Stdout
	if !strings.Contains(home, "Project:") || !strings.Contains(home, "none: ") || !strings.Contains(home, "no project") {
		t.Errorf("started in home:\n%s", home)
	}
}

// TestGetNamesTheSandboxEnv: get, --json and the approval view name the
// variables a sandboxed server receives — the allow-list, its private
// TMPDIR, its definition's env — and never mcpdeck's own credentials or
// the person's other variables.
func TestGetNamesTheSandboxEnv(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.Extra = []string{"MCPDECK_SERVE_TOKEN=serve-token-0123456789", "AWS_SECRET_ACCESS_KEY=x", "LANG=C.UTF-8"}
	e.OK("mcp", "add", "-s", "user", "--sandbox", "-e", "API_KEY=k", "boxed", "--", "false", "pkg")
	out := e.OK("mcp", "get", "boxed").Stdout
	var env string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "Sandbox env:") {
			env += l + "\n"
		}
	}
	for _, want := range []string{"API_KEY", "LANG", "PATH", "TMPDIR"} {
		if !strings.Contains(env, want) {
			t.Errorf("sandbox env lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(env, "MCPDECK_") || strings.Contains(env, "AWS_") {
		t.Errorf("sandbox env names a variable it does not pass:\n%s", env)
	}
	if js := e.OK("mcp", "get", "boxed", "--json").Stdout; !strings.Contains(js, `"sandboxEnv": [`) || strings.Contains(js, "MCPDECK_SERVE") || !strings.Contains(js, `"API_KEY"`) {
		t.Errorf("get --json:\n%s", js)
	}
	e.WriteFile(filepath.Join(e.Proj, ".mcp.json"), `{"mcpServers": {"repo": {"command": "false", "env": {"TOKEN": "${TOKEN}"}, "sandbox": true}}}`)
	if out := e.OK("mcp", "get", "repo").Stdout; !strings.Contains(out, "Sandbox env:") || !strings.Contains(out, "PATH HOME LANG LANGUAGE LC_* TERM TZ") || !strings.Contains(out, " TOKEN") {
		t.Errorf("the approval view of a project server:\n%s", out)
	}
}
