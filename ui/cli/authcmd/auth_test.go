package authcmd_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/ui/cli/authcmd"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
)

func runAuth(t *testing.T, servers string, args ...string) (string, string, error) {
	t.Helper()
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	g := &clicore.Globals{
		Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
		MCPConfig: []string{servers},
		NewLoadOptions: func(dyn []string) (config.LoadOptions, error) {
			return config.LoadOptions{Cwd: dir, Home: dir, ConfigDir: dir + "/config", ManagedDir: dir + "/managed", Dynamic: dyn}, nil
		},
	}
	cmd := authcmd.NewCmd(g)
	cmd.SetArgs(args)
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.ExecuteContext(context.Background())
	return stdout.String(), stderr.String(), err
}

func TestAuthCommandClientCredentialsAndLogout(t *testing.T) {
	keyring.MockInit() // never touch the real keychain
	// A session bus to reach, so the keychain is asked: the mock answers.
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	f := newE2EAS(t)
	t.Setenv("MCPDECK_CLIENT_SECRET", f.secret)
	servers := `{"mcpServers":{"cc":{"type":"http","url":"` + f.srv.URL + `/mcp","oauth":{"clientId":"good","grant":"client_credentials"}}}}`

	out, errOut, err := runAuth(t, servers, "--client-secret", "cc")
	if err != nil {
		t.Fatalf("auth: %v (stderr %s)", err, errOut)
	}
	if out != "Signed in to cc.\n" {
		t.Errorf("stdout %q", out)
	}
	for _, secret := range f.secrets() {
		if strings.Contains(out+errOut, secret) {
			t.Error("a secret was printed")
		}
	}
	out, _, err = runAuth(t, servers, "--logout", "cc")
	if err != nil {
		t.Fatalf("logout: %v", err)
	}
	if !strings.HasPrefix(out, "Signed out of cc") {
		t.Errorf("stdout %q", out)
	}
	if f.revoked != 1 {
		t.Errorf("revocations = %d, want 1", f.revoked)
	}
}

func TestAuthCommandRefusals(t *testing.T) {
	keyring.MockInit()
	// A session bus to reach, so the keychain is asked: the mock answers.
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	servers := `{"mcpServers":{"local":{"command":"true"}}}`
	if _, _, err := runAuth(t, servers, "nope"); err == nil || !strings.Contains(err.Error(), "no server named nope") {
		t.Errorf("unknown server: %v", err)
	}
	if _, _, err := runAuth(t, servers, "local"); err == nil || !strings.Contains(err.Error(), "sse and http") {
		t.Errorf("stdio server: %v", err)
	}
	if _, _, err := runAuth(t, servers); err == nil {
		t.Error("no argument accepted")
	}
}

// Signing out needs no approval: it never contacts the server. Signing in
// to an unapproved project server is refused.
func TestAuthLogoutOfUnapprovedProjectServer(t *testing.T) {
	keyring.MockInit()
	// A session bus to reach, so the keychain is asked: the mock answers.
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(`{"mcpServers":{"p":{"type":"http","url":"http://127.0.0.1:1/mcp"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	auth := func(args ...string) (string, error) {
		var stdout, stderr bytes.Buffer
		g := &clicore.Globals{
			Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
			NewLoadOptions: func(dyn []string) (config.LoadOptions, error) {
				return config.LoadOptions{Cwd: dir, Home: dir, ConfigDir: dir + "/config", ManagedDir: dir + "/managed", Dynamic: dyn}, nil
			},
		}
		cmd := authcmd.NewCmd(g)
		cmd.SetArgs(args)
		cmd.SilenceUsage, cmd.SilenceErrors = true, true
		err := cmd.ExecuteContext(context.Background())
		return stdout.String(), err
	}
	if _, err := auth("p"); err == nil || !strings.Contains(err.Error(), "awaiting your approval (mcpdeck mcp approve p)") {
		t.Errorf("sign-in: %v", err)
	}
	if out, err := auth("--logout", "p"); err != nil || !strings.HasPrefix(out, "Signed out of p") {
		t.Errorf("logout: %q, %v", out, err)
	}
}
