package authcmd_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/zalando/go-keyring"

	"github.com/mcpdeck/mcpdeck/ui/cli"
)

// e2eAS is an authorization server granting client_credentials (basic) to
// client "good" with a random secret, quoting whatever secret it was sent
// when refusing (as some real ones do), in front of a real MCP server that
// takes only the tokens it issued.
type e2eAS struct {
	srv    *httptest.Server
	secret string

	mu      sync.Mutex
	issued  []string          // every secret handed out
	codes   map[string]string // authorization code → PKCE challenge
	revoked int
	// noRevocation leaves revocation_endpoint out of the metadata;
	// revokeStatus, when not 0, is what /revoke answers.
	noRevocation bool
	revokeStatus int
}

func randHex(t *testing.T) string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

func newE2EAS(t *testing.T) *e2eAS {
	f := &e2eAS{secret: "secret-" + randHex(t)}
	s := server.NewMCPServer("protected", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("whoami", mcp.WithDescription("says who you are")), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("a machine"), nil
	})
	mcpHandler := server.NewStreamableHTTPServer(s, server.WithStateLess(true))
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := "http://" + r.Host
		switch r.URL.Path {
		case "/.well-known/oauth-protected-resource/mcp":
			writeJSONTest(w, 200, map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}})
		case "/.well-known/oauth-authorization-server":
			meta := map[string]any{
				"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
				"revocation_endpoint": base + "/revoke", "registration_endpoint": base + "/register",
				"token_endpoint_auth_methods_supported": []string{"client_secret_basic", "none"},
				"code_challenge_methods_supported":      []string{"S256"},
			}
			f.mu.Lock()
			if f.noRevocation {
				delete(meta, "revocation_endpoint")
			}
			f.mu.Unlock()
			writeJSONTest(w, 200, meta)
		case "/register":
			var reg struct {
				RedirectURIs []string `json:"redirect_uris"`
			}
			_ = json.NewDecoder(r.Body).Decode(&reg)
			writeJSONTest(w, 201, map[string]any{"client_id": "dyn", "redirect_uris": reg.RedirectURIs, "token_endpoint_auth_method": "none"})
		case "/authorize":
			q := r.URL.Query()
			code := f.remember("code-", q.Get("code_challenge"))
			http.Redirect(w, r, q.Get("redirect_uri")+"?code="+code+"&state="+url.QueryEscape(q.Get("state")), http.StatusFound)
		case "/token":
			f.token(t, w, r)
		case "/revoke":
			f.mu.Lock()
			f.revoked++
			status := f.revokeStatus
			f.mu.Unlock()
			if status != 0 {
				writeJSONTest(w, status, map[string]any{"error": "temporarily_unavailable"})
			}
		case "/mcp":
			if !f.valid(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")) {
				w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+base+`/.well-known/oauth-protected-resource/mcp"`)
				w.WriteHeader(401)
				return
			}
			mcpHandler.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// remember issues a secret with prefix, keeping what it stands for.
func (f *e2eAS) remember(prefix, meaning string) string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	s := prefix + hex.EncodeToString(b)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.codes == nil {
		f.codes = map[string]string{}
	}
	f.codes[s] = meaning
	f.issued = append(f.issued, s)
	return s
}

// token grants client_credentials to "good" (basic, its secret), and
// authorization_code (PKCE) and refresh_token to the registered public client.
func (f *e2eAS) token(t *testing.T, w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	form := r.PostForm
	switch form.Get("grant_type") {
	case "client_credentials":
		if id, secret, _ := r.BasicAuth(); id != "good" || secret != f.secret {
			writeJSONTest(w, 401, map[string]any{"error": "invalid_client", "error_description": "client secret " + secret + " is wrong"})
			return
		}
	case "authorization_code":
		sum := sha256.Sum256([]byte(form.Get("code_verifier")))
		f.mu.Lock()
		challenge, ok := f.codes[form.Get("code")]
		delete(f.codes, form.Get("code"))
		f.mu.Unlock()
		if !ok || challenge != base64.RawURLEncoding.EncodeToString(sum[:]) {
			writeJSONTest(w, 400, map[string]any{"error": "invalid_grant"})
			return
		}
	default:
		writeJSONTest(w, 400, map[string]any{"error": "unsupported_grant_type"})
		return
	}
	resp := map[string]any{"access_token": f.remember("at-", ""), "token_type": "Bearer", "expires_in": 3600}
	if form.Get("grant_type") == "authorization_code" {
		resp["refresh_token"] = f.remember("rt-", "")
	}
	writeJSONTest(w, 200, resp)
}

func (f *e2eAS) valid(tok string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.issued {
		if s == tok && strings.HasPrefix(s, "at-") {
			return true
		}
	}
	return false
}

func (f *e2eAS) secrets() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string{f.secret}, f.issued...)
}

func writeJSONTest(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// TestAuthEndToEndKeepsSecretsOut drives the real CLI in-process (engine,
// transports and oauth together) on a machine without a keychain: sign in,
// list (text and --json), list tools, call, a server whose authorization
// server refuses us quoting the secret we sent, and sign out. Every byte of
// output is scanned for the client secret and every token issued; only the
// 0600 credentials file may hold them, and mcp list must say it is used.
func TestAuthEndToEndKeepsSecretsOut(t *testing.T) {
	keyring.MockInitWithError(errors.New("org.freedesktop.secrets was not provided by any .service files"))
	t.Cleanup(keyring.MockInit)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	t.Setenv("MCPDECK_MANAGED_DIR", filepath.Join(root, "managed"))
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl stands in for the browser")
	}
	// The browser: fetch the authorization URL and follow the redirect to
	// mcpdeck's loopback callback.
	t.Setenv("BROWSER", curl+" -fsSL -o /dev/null")
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(proj)

	f := newE2EAS(t)
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"api":   map[string]any{"type": "http", "url": f.srv.URL + "/mcp", "oauth": map[string]any{"clientId": "good", "grant": "client_credentials"}},
		"leaky": map[string]any{"type": "http", "url": f.srv.URL + "/mcp", "oauth": map[string]any{"clientId": "other", "grant": "client_credentials"}},
		"web":   map[string]any{"type": "http", "url": f.srv.URL + "/mcp"},
	}})
	cfgPath := filepath.Join(root, "servers.json")
	if err := os.WriteFile(cfgPath, cfg, 0o600); err != nil {
		t.Fatal(err)
	}

	var all strings.Builder
	mcpdeck := func(stdin string, args ...string) (int, string, string) {
		t.Helper()
		var out, errb bytes.Buffer
		code := cli.Run(context.Background(), append([]string{"--mcp-config", cfgPath}, args...), strings.NewReader(stdin), &out, &errb)
		all.WriteString(out.String() + "\n" + errb.String() + "\n")
		return code, out.String(), errb.String()
	}

	if code, _, errOut := mcpdeck(f.secret+"\n", "auth", "--client-secret", "api"); code != 0 {
		t.Fatalf("auth: exit %d: %s", code, errOut)
	}
	// The other server's secret is a wrong one, long enough to be redacted.
	wrong := "wrong-" + randHex(t)
	if code, _, errOut := mcpdeck(wrong+"\n", "auth", "--client-secret", "leaky"); code == 0 || !strings.Contains(errOut, "invalid_client") {
		t.Errorf("auth leaky: exit %d: %s", code, errOut)
	}

	// The code flow: registration, browser, callback, PKCE, code exchange.
	// The token goes to the 0600 file (no keychain here), and the command
	// that stored it says so.
	credPath := filepath.Join(home, ".config", "mcpdeck", "credentials.json")
	if code, out, errOut := mcpdeck("", "auth", "web"); code != 0 || !strings.Contains(errOut, "/authorize?") {
		t.Fatalf("auth web: exit %d\n%s\n%s", code, out, errOut)
	} else if !strings.Contains(errOut, "no keychain") || !strings.Contains(errOut, credPath) {
		t.Errorf("auth web stored a token in the file without saying so:\n%s", errOut)
	} else if !strings.Contains(errOut, "No browser on this machine (over SSH)?") || !strings.Contains(errOut, "run here: curl 'ADDRESS'") {
		t.Errorf("auth web does not say how to sign in without a browser:\n%s", errOut)
	}
	if code, out, errOut := mcpdeck("", "--json", "call", "web", "whoami", "{}"); code != 0 || !strings.Contains(out, "a machine") {
		t.Errorf("call web: exit %d\n%s\n%s", code, out, errOut)
	}

	code, out, errOut := mcpdeck("", "mcp", "list")
	if !strings.Contains(out, "✓ api") || !strings.Contains(out, "leaky: ") {
		t.Errorf("mcp list: exit %d\n%s\n%s", code, out, errOut)
	}
	// mcp list stored nothing: no keychain warning on every run
	if strings.Contains(errOut, "no keychain") {
		t.Errorf("mcp list warns about the keychain though it stored nothing:\n%s", errOut)
	}
	_, out, _ = mcpdeck("", "mcp", "list", "--json")
	var doc struct{ Warnings []string }
	if err := json.Unmarshal([]byte(out), &doc); err != nil || strings.Contains(strings.Join(doc.Warnings, " "), "no keychain") {
		t.Errorf("mcp list --json warnings %v (%v)", doc.Warnings, err)
	}
	if code, out, errOut := mcpdeck("", "tools", "api", "--json"); code != 0 || !strings.Contains(out, "whoami") {
		t.Errorf("tools: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, out, errOut := mcpdeck("", "call", "api", "whoami", "{}"); code != 0 || !strings.Contains(out, "a machine") {
		t.Errorf("call: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, _, errOut := mcpdeck("", "call", "leaky", "whoami", "{}"); code == 0 {
		t.Errorf("call leaky succeeded: %s", errOut)
	}
	if code, _, errOut := mcpdeck("", "auth", "--logout", "api"); code != 0 {
		t.Errorf("logout: exit %d: %s", code, errOut)
	}
	if f.revoked == 0 {
		t.Error("logout did not revoke")
	}

	cred, err := os.ReadFile(credPath)
	if err != nil {
		t.Fatalf("credentials file: %v", err)
	}
	if fi, _ := os.Stat(credPath); fi.Mode().Perm() != 0o600 {
		t.Errorf("credentials file mode %v", fi.Mode().Perm())
	}
	if !strings.Contains(string(cred), f.secret) {
		t.Error("the client secret is not in the credentials file: the test does not test what it says")
	}
	var files strings.Builder
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && p != credPath {
			b, _ := os.ReadFile(p)
			files.WriteString(string(b))
		}
		return nil
	})
	secrets := append(f.secrets(), wrong)
	if n := strings.Count(strings.Join(secrets, " "), "code-"); n != 1 || len(secrets) < 6 {
		t.Fatalf("%d secrets (%d codes) issued: the scan would prove little", len(secrets), n)
	}
	for _, s := range secrets {
		if strings.Contains(all.String(), s) {
			t.Errorf("a secret (%.10s…) appears in the output:\n%s", s, all.String())
		}
		if strings.Contains(files.String(), s) {
			t.Errorf("a secret (%.10s…) is in a file other than the credentials file", s)
		}
	}
}
