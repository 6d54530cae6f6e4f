package authcmd_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/ui/cli"
)

// TestAuthErrorFromServerIsSanitized: an authorization server's error and
// error_description reach `mcpdeck auth`'s output without their escape
// sequences, C1 controls, bidi overrides or tag characters.
func TestAuthErrorFromServerIsSanitized(t *testing.T) {
	keyring.MockInit()
	// A session bus to reach, so the keychain is asked: the mock answers.
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
	root := t.TempDir()
	t.Setenv("HOME", root)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, ".config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(root, ".cache"))
	t.Setenv("MCPDECK_MANAGED_DIR", filepath.Join(root, "managed"))
	t.Setenv("MCPDECK_CLIENT_SECRET", "s3cret")
	t.Chdir(root)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := "http://" + r.Host
		switch r.URL.Path {
		case "/.well-known/oauth-protected-resource/mcp":
			writeJSONTest(w, 200, map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}})
		case "/.well-known/oauth-authorization-server":
			writeJSONTest(w, 200, map[string]any{
				"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
				"token_endpoint_auth_methods_supported": []string{"client_secret_basic"},
				"code_challenge_methods_supported":      []string{"S256"},
			})
		case "/token":
			writeJSONTest(w, 400, map[string]any{"error": "invalid_client" + clitest.Hostile, "error_description": "refused " + clitest.Hostile})
		case "/mcp":
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+base+`/.well-known/oauth-protected-resource/mcp"`)
			w.WriteHeader(401)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	cfg := `{"mcpServers":{"api":{"type":"http","url":"` + srv.URL + `/mcp","oauth":{"clientId":"c","grant":"client_credentials"}}}}`
	var out, errb bytes.Buffer
	code := cli.Run(context.Background(), []string{"--mcp-config", cfg, "auth", "api"}, strings.NewReader(""), &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "refused") {
		t.Fatalf("want a failed sign-in quoting the server's error, got exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	clitest.AssertTerminalSafe(t, "auth stdout", out.String())
	clitest.AssertTerminalSafe(t, "auth stderr", errb.String())
}
