package authcmd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/mcpdeck/mcpdeck/ui/cli"
)

// TestAuthLogoutSaysWhatHappenedToTheTokens drives `mcpdeck auth
// --logout` (in process, exit codes and all) against an authorization
// server that revokes, one that offers no revocation, and one whose
// revocation fails: "revoked" is said only when revocation happened,
// "deleted (the server offers no revocation)" otherwise, and a second
// sign-out says there was nothing to delete; a failed revocation is exit 1.
func TestAuthLogoutSaysWhatHappenedToTheTokens(t *testing.T) {
	for _, c := range []struct {
		name           string
		noRevocation   bool
		revokeStatus   int
		code           int
		stdout, stderr string
		json           string
		revocations    int
	}{
		{"revoked", false, 0, 0, "Signed out of api: tokens revoked and deleted.\n", "", "revoked", 1},
		{"no revocation endpoint", true, 0, 0, "Signed out of api: tokens deleted (the server offers no revocation).\n", "", "deleted", 0},
		{"revocation fails", false, 503, 1, "", "mcpdeck: logged out of api locally, but the server did not confirm revocation: ", "", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			keyring.MockInit() // never touch the real keychain
			// A session bus to reach, so the keychain is asked: the mock answers.
			t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
			root := t.TempDir()
			t.Setenv("HOME", filepath.Join(root, "home"))
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "home", ".config"))
			t.Setenv("XDG_CACHE_HOME", filepath.Join(root, "home", ".cache"))
			t.Setenv("MCPDECK_MANAGED_DIR", filepath.Join(root, "managed"))
			t.Setenv("MCPDECK_CLIENT_SECRET", "")
			f := newE2EAS(t)
			f.mu.Lock()
			f.noRevocation, f.revokeStatus = c.noRevocation, c.revokeStatus
			f.mu.Unlock()
			cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
				"api": map[string]any{"type": "http", "url": f.srv.URL + "/mcp", "oauth": map[string]any{"clientId": "good", "grant": "client_credentials"}},
			}})
			cfgPath := filepath.Join(root, "servers.json")
			if err := os.WriteFile(cfgPath, cfg, 0o600); err != nil {
				t.Fatal(err)
			}
			mcpdeck := func(stdin string, args ...string) (int, string, string) {
				t.Helper()
				var out, errb bytes.Buffer
				code := cli.Run(context.Background(), append([]string{"--mcp-config", cfgPath}, args...), strings.NewReader(stdin), &out, &errb)
				return code, out.String(), errb.String()
			}
			signIn := func() {
				t.Helper()
				if code, _, errOut := mcpdeck(f.secret+"\n", "auth", "--client-secret", "api"); code != 0 {
					t.Fatalf("auth: exit %d: %s", code, errOut)
				}
			}

			signIn()
			code, out, errOut := mcpdeck("", "auth", "--logout", "api")
			if code != c.code || out != c.stdout || !strings.HasPrefix(errOut, c.stderr) || (c.stderr == "") != (errOut == "") {
				t.Errorf("logout: exit %d, stdout %q, stderr %q; want exit %d, %q, %q…", code, out, errOut, c.code, c.stdout, c.stderr)
			}
			f.mu.Lock()
			revocations := f.revoked
			f.mu.Unlock()
			if revocations != c.revocations {
				t.Errorf("%d revocations, want %d", revocations, c.revocations)
			}
			if code, out, errOut := mcpdeck("", "auth", "--logout", "api"); code != 0 || out != "Signed out of api: no tokens were stored.\n" {
				t.Errorf("second logout: exit %d, %q, %q", code, out, errOut)
			}
			if c.json == "" {
				return
			}
			signIn()
			code, out, errOut = mcpdeck("", "--json", "auth", "--logout", "api")
			var doc map[string]string
			if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil || doc["tokens"] != c.json || doc["status"] != "signed-out" {
				t.Errorf("--json logout: exit %d, %q (%v), %q", code, out, err, errOut)
			}
		})
	}
}
