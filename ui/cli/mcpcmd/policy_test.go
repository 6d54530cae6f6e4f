package mcpcmd

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

func TestManagedPolicyIsShown(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.WriteFile(filepath.Join(e.Managed, "managed-settings.json"), `{"deniedMcpServers": [{"serverName": "bad"}]}`)
	e.OK("mcp", "add", "bad", "--", "x")
	e.OK("mcp", "add", "fine", "--", "y")
	servers, _ := e.List()
	if servers["fine"].Scope != "local" || !strings.Contains(e.OK("mcp", "list", "--no-connect").Stdout, "blocked (deniedMcpServers") {
		t.Errorf("list does not show the policy rule: %+v", servers)
	}
	if out := e.OK("mcp", "get", "bad").Stdout; !strings.Contains(out, `no: blocked by policy rule deniedMcpServers: serverName "bad"`) {
		t.Errorf("get bad:\n%s", out)
	}
}

func TestEnterpriseConfigIsExclusive(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.OK("mcp", "add", "mine", "--", "x")
	e.WriteFile(filepath.Join(e.Managed, "managed-mcp.json"), `{"mcpServers": {"corp": {"type": "http", "url": "https://mcp.corp.example/mcp"}}}`)
	servers, _ := e.List()
	if len(servers) != 1 || servers["corp"].Scope != "enterprise" {
		t.Fatalf("with managed-mcp.json only its servers count: %+v", servers)
	}
	if out := e.OK("mcp", "list", "--no-connect").Stdout; !strings.Contains(out, "every other scope is ignored") {
		t.Errorf("list does not say the managed config is exclusive:\n%s", out)
	}
}

// TestUnknownNameNamesTheReason: get, enable, disable, approve and reject of a
// name no server has fail with the same sentence; under managed-mcp.json it
// says that file is why a server the person added is not there.
func TestUnknownNameNamesTheReason(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.OK("mcp", "add", "mine", "--", "x")
	cmds := [][]string{{"get"}, {"enable"}, {"disable"}, {"approve"}, {"reject"}}
	for _, c := range cmds {
		r := e.Fails(1, append([]string{"mcp"}, append(c, "ghost")...)...)
		if want := "mcpdeck: no server named ghost (see 'mcpdeck mcp list').\n"; r.Stderr != want {
			t.Errorf("mcp %s ghost: %q, want %q", c[0], r.Stderr, want)
		}
	}
	e.WriteFile(filepath.Join(e.Managed, "managed-mcp.json"), `{"mcpServers": {"corp": {"command": "corp"}}}`)
	for _, c := range cmds {
		r := e.Fails(1, append([]string{"mcp"}, append(c, "mine")...)...)
		if !strings.Contains(r.Stderr, "no server named mine: managed-mcp.json in the managed directory is in effect") {
			t.Errorf("mcp %s mine under managed-mcp.json: %q", c[0], r.Stderr)
		}
	}
}

// TestHiddenPluginServerIsExplained: a plugin server hidden because it
// duplicates another is not "unknown": get says what hides it.
func TestHiddenPluginServerIsExplained(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	plugin := filepath.Join(e.Config, "mcpdeck", "plugins", "gh", ".mcp.json")
	e.WriteFile(plugin, `{"mcpServers": {"gh-plugin": {"command": "npx", "args": ["-y", "gh"]}}}`)
	e.OK("mcp", "add", "github", "--", "npx", "-y", "gh")
	r := e.Fails(1, "mcp", "get", "gh-plugin")
	if want := "mcpdeck: server gh-plugin from the plugin scope (" + plugin + ") is hidden: it runs the same command as github.\n"; r.Stderr != want {
		t.Errorf("got %q\nwant %q", r.Stderr, want)
	}
}
