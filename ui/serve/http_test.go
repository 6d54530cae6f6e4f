package serve

import (
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestHTTPSecurity: /mcp without the token, or with a wrong one, is 401
// (and the answer never echoes a token); a Host or Origin that is not this
// machine is 403 (DNS rebinding), /health included; /health without a
// token is 200 and holds counts only; with the token /mcp is served.
func TestHTTPSecurity(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, nil)
	const token = "the-right-token-0123456789"
	base := r.serveHTTP(HTTPOptions{Token: token})
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, tc := range []struct {
		name, method, path, auth, host, origin string
		want                                   int
	}{
		{"no token", "POST", "/mcp", "", "", "", http.StatusUnauthorized},
		{"wrong token", "POST", "/mcp", "Bearer wrong-token-0123456789", "", "", http.StatusUnauthorized},
		{"token as Basic", "POST", "/mcp", "Basic " + token, "", "", http.StatusUnauthorized},
		{"right token", "POST", "/mcp", "Bearer " + token, "", "", http.StatusOK},
		{"right token, foreign Host", "POST", "/mcp", "Bearer " + token, "evil.example:80", "", http.StatusForbidden},
		{"right token, foreign Origin", "POST", "/mcp", "Bearer " + token, "", "https://evil.example", http.StatusForbidden},
		{"right token, null Origin", "POST", "/mcp", "Bearer " + token, "", "null", http.StatusForbidden},
		{"right token, localhost Origin", "POST", "/mcp", "Bearer " + token, "", "http://localhost:5173", http.StatusOK},
		{"health without token", "GET", "/health", "", "", "", http.StatusOK},
		{"health, foreign Host", "GET", "/health", "", "rebound.example", "", http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := ""
			if tc.method == "POST" {
				body = initialize
			}
			resp, b := probe{tc.method, tc.path, tc.auth, tc.host, tc.origin}.do(t, base, body)
			if resp.StatusCode != tc.want {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tc.want, b)
			}
			if strings.Contains(b, token) || strings.Contains(b, "wrong-token") {
				t.Errorf("the answer carries a token: %s", b)
			}
			if tc.want == http.StatusUnauthorized && resp.Header.Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
			if tc.path == "/health" && tc.want == http.StatusOK && (!strings.Contains(b, `"status":"ok"`) || strings.Contains(b, "fa")) {
				t.Errorf("health = %s, want status and counts, no names", b)
			}
		})
	}
}

// probe is one HTTP request to the gateway's listener.
type probe struct{ method, path, auth, host, origin string }

// do sends p (with body, as an MCP client would) to base and returns the
// answer and its body. A redirect is returned, not followed.
func (p probe) do(t *testing.T, base, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), p.method, base+p.path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if p.auth != "" {
		req.Header.Set("Authorization", p.auth)
	}
	if p.host != "" {
		req.Host = p.host
	}
	if p.origin != "" {
		req.Header.Set("Origin", p.origin)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	return resp, string(b)
}

// TestHTTPBodyIsBounded: a request body over 32 MB is refused, not read
// whole.
func TestHTTPBodyIsBounded(t *testing.T) {
	r := newRig(t, nil, Options{}, nil)
	const token = "the-right-token-0123456789"
	base := r.serveHTTP(HTTPOptions{Token: token})
	body := io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`),
		io.LimitReader(zeros{}, maxRequestBody+1), strings.NewReader(`"}}`))
	req, err := http.NewRequestWithContext(t.Context(), "POST", base+"/mcp", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return // the server may close the connection while the body is still being sent
	}
	b, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if !strings.Contains(string(b), "too large") {
		t.Errorf("status %d: %s", resp.StatusCode, b)
	}
}

// zeros reads as an endless run of '0'.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '0'
	}
	return len(p), nil
}

// TestHostAndOriginRules: without --listen only loopback names pass; with
// it, also the --http host and IP literals, never another name.
func TestHostAndOriginRules(t *testing.T) {
	local := HTTPOptions{}
	for host, want := range map[string]bool{
		"127.0.0.1:8765": true, "localhost:1": true, "[::1]:80": true, "LOCALHOST": true,
		"192.168.1.5:8765": false, "evil.example": false, "127.0.0.1.evil.example": false, "": false,
	} {
		if got := local.hostAllowed(host); got != want {
			t.Errorf("loopback only: hostAllowed(%q) = %v", host, got)
		}
	}
	remote := HTTPOptions{Remote: true, Host: "devbox.lan"}
	for host, want := range map[string]bool{
		"devbox.lan:8765": true, "10.0.0.7:8765": true, "[fe80::1]:1": true, "localhost:9": true, "evil.example:8765": false,
	} {
		if got := remote.hostAllowed(host); got != want {
			t.Errorf("--listen: hostAllowed(%q) = %v", host, got)
		}
	}
	for origin, want := range map[string]bool{
		"": true, "http://127.0.0.1:3000": true, "https://localhost": true,
		"file://": false, "chrome-extension://abc": false, "http://evil.example": false, "null": false,
	} {
		if got := local.originAllowed(origin); got != want {
			t.Errorf("originAllowed(%q) = %v", origin, got)
		}
	}
}

// TestNonLoopbackBindNeedsListen: --http on an address other machines
// can reach is refused without --listen, naming the flag.
func TestNonLoopbackBindNeedsListen(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:8765", ":8765", "192.168.1.5:8765", "[::]:8765", "example.com:80"} {
		if _, err := CheckAddr(addr, false); !errors.Is(err, ErrNotLoopback) || !strings.Contains(err.Error(), "--listen") {
			t.Errorf("CheckAddr(%q) = %v", addr, err)
		}
		if host, err := CheckAddr(addr, true); err != nil {
			t.Errorf("CheckAddr(%q, --listen) = %q, %v", addr, host, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:8765", "localhost:0", "[::1]:1"} {
		if _, err := CheckAddr(addr, false); err != nil {
			t.Errorf("CheckAddr(%q) = %v", addr, err)
		}
	}
	if _, err := CheckAddr("8765", false); err == nil || !strings.Contains(err.Error(), "HOST:PORT") {
		t.Errorf("CheckAddr without a port: %v", err)
	}
}

// TestToken: MCPDECK_SERVE_TOKEN wins (a short one is refused, without
// being quoted); otherwise a random token is made once, stored 0600 and
// reused; a stored file others can read is refused.
func TestToken(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mcpdeck")
	noEnv := func(string) (string, bool) { return "", false }
	tok, path, created, err := Token(noEnv, dir)
	if err != nil || !created || len(tok) < 40 || path != filepath.Join(dir, "serve-token") {
		t.Fatalf("first Token = %q %q %v %v", tok, path, created, err)
	}
	if fi, err := os.Stat(path); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
		t.Errorf("token file: %v %v", fi.Mode(), err)
	}
	again, _, created, err := Token(noEnv, dir)
	if err != nil || created || again != tok {
		t.Errorf("second Token = %q %v %v, want the stored one", again, created, err)
	}
	other, _, _, _ := Token(noEnv, filepath.Join(t.TempDir(), "x"))
	if other == tok {
		t.Error("two stores made the same token")
	}
	env := func(v string) func(string) (string, bool) {
		return func(k string) (string, bool) { return v, k == TokenEnv }
	}
	if got, _, created, err := Token(env("from-the-environment-123"), dir); err != nil || created || got != "from-the-environment-123" {
		t.Errorf("env Token = %q %v %v", got, created, err)
	}
	if _, _, _, err := Token(env("xyzzy"), dir); err == nil || strings.Contains(err.Error(), "xyzzy") || !strings.Contains(err.Error(), TokenEnv) {
		t.Errorf("short env token: %v", err)
	}
	if runtime.GOOS != "windows" {
		// A link planted where the token goes is not written through.
		linked := filepath.Join(t.TempDir(), "mcpdeck")
		if err := os.MkdirAll(linked, 0o700); err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(t.TempDir(), "elsewhere")
		if err := os.Symlink(target, filepath.Join(linked, "serve-token")); err != nil {
			t.Fatal(err)
		}
		if _, _, created, err := Token(noEnv, linked); err == nil || created || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("Token through a dangling link: created %v, %v", created, err)
		}
		if _, err := os.Lstat(target); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the link's target was written: %v", err)
		}
		if err := os.Chmod(path, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := Token(noEnv, dir); err == nil || !strings.Contains(err.Error(), "chmod 600") || strings.Contains(err.Error(), tok) {
			t.Errorf("world-readable token file: %v", err)
		}
	}
}
