package serve

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestDebugRuntime: /debug/runtime is not served unless HTTPOptions.Debug
// (MCPDECK_SERVE_DEBUG=1) asks for it; then it needs the token, the
// capability URL's path form included, refuses a foreign Host like every
// path, and answers counts only.
func TestDebugRuntime(t *testing.T) {
	const token = "the-right-token-0123456789"
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, nil)
	off := r.serveHTTP(HTTPOptions{Token: token})
	on := r.serveHTTP(HTTPOptions{Token: token, Debug: true})
	for _, tc := range []struct {
		name, base, auth, host string
		want                   int
	}{
		{"off, with token", off, "Bearer " + token, "", http.StatusNotFound},
		{"on, no token", on, "", "", http.StatusUnauthorized},
		{"on, wrong token", on, "Bearer wrong-token-0123456789", "", http.StatusUnauthorized},
		{"on, foreign Host", on, "Bearer " + token, "evil.example", http.StatusForbidden},
		{"on, with token", on, "Bearer " + token, "", http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, b := probe{"GET", "/debug/runtime", tc.auth, tc.host, ""}.do(t, tc.base, "")
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.want, b)
			}
			if strings.Contains(b, "fa") || strings.Contains(b, token) {
				t.Errorf("the answer names a server or carries the token: %s", b)
			}
			if tc.want != http.StatusOK {
				return
			}
			var got map[string]uint64
			if err := json.Unmarshal([]byte(b), &got); err != nil {
				t.Fatalf("%v: %s", err, b)
			}
			if got["goroutines"] == 0 || got["heap_object_bytes"] == 0 || got["total_bytes"] == 0 {
				t.Errorf("runtime figures missing: %s", b)
			}
		})
	}
	// The path form of the token is for /mcp only.
	resp, b := probe{"GET", "/debug/runtime/" + token, "", "", ""}.do(t, on, "")
	if resp.StatusCode == http.StatusOK {
		t.Errorf("/debug/runtime/TOKEN answered: %s", b)
	}
}

// TestDebugEnabled: only the value 1 turns /debug/runtime on; a nil
// lookup reads the process's environment.
func TestDebugEnabled(t *testing.T) {
	for v, want := range map[string]bool{"1": true, "": false, "0": false, "true": false, "yes": false} {
		if got := DebugEnabled(func(k string) (string, bool) { return v, k == DebugEnv }); got != want {
			t.Errorf("%s=%q: %v, want %v", DebugEnv, v, got, want)
		}
	}
	t.Setenv(DebugEnv, "1")
	if !DebugEnabled(nil) {
		t.Errorf("nil lookup with %s=1 in the environment: off", DebugEnv)
	}
}
