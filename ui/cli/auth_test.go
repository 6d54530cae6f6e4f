package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/mcpdeck/mcpdeck/model"
)

// authFake is a protected resource plus an authorization server that
// grants client_credentials to client c1 with secret s1 and revokes.
type authFake struct {
	srv     *httptest.Server
	mu      sync.Mutex
	revoked int
}

func newAuthFake(t *testing.T) *authFake {
	f := &authFake{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := "http://" + r.Host
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/.well-known/oauth-protected-resource/mcp":
			_ = json.NewEncoder(w).Encode(map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}})
		case "/.well-known/oauth-authorization-server":
			_ = json.NewEncoder(w).Encode(map[string]any{
				"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
				"revocation_endpoint": base + "/revoke",
			})
		case "/token":
			if id, secret, ok := r.BasicAuth(); !ok || id != "c1" || secret != "s1" {
				w.WriteHeader(401)
				_, _ = w.Write([]byte(`{"error":"invalid_client"}`))
				return
			}
			_, _ = w.Write([]byte(`{"access_token":"cli-test-access-token","token_type":"Bearer","expires_in":3600}`))
		case "/revoke":
			f.mu.Lock()
			f.revoked++
			f.mu.Unlock()
		case "/mcp":
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+base+`/.well-known/oauth-protected-resource/mcp"`)
			w.WriteHeader(401)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func runAuth(t *testing.T, servers string, args ...string) (string, string, error) {
	t.Helper()
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	g := &globalOpts{
		stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		mcpConfig: []string{servers},
		newLoadOptions: func(dyn []string) (model.LoadOptions, error) {
			return model.LoadOptions{Cwd: dir, Home: dir, ConfigDir: dir + "/config", ManagedDir: dir + "/managed", Dynamic: dyn}, nil
		},
	}
	cmd := newAuthCmd(g)
	cmd.SetArgs(args)
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.ExecuteContext(context.Background())
	return stdout.String(), stderr.String(), err
}

func TestAuthCommandClientCredentialsAndLogout(t *testing.T) {
	keyring.MockInit() // never touch the real keychain
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("MCPDECK_CLIENT_SECRET", "s1")
	f := newAuthFake(t)
	servers := `{"mcpServers":{"cc":{"type":"http","url":"` + f.srv.URL + `/mcp","oauth":{"clientId":"c1","grant":"client_credentials"}}}}`

	out, errOut, err := runAuth(t, servers, "--client-secret", "cc")
	if err != nil {
		t.Fatalf("auth: %v (stderr %s)", err, errOut)
	}
	if out != "Signed in to cc.\n" {
		t.Errorf("stdout %q", out)
	}
	if strings.Contains(out+errOut, "cli-test-access-token") || strings.Contains(out+errOut, "s1\n") {
		t.Error("a secret was printed")
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
