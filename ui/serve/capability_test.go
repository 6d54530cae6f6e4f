package serve

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestCapabilityURL: the token as the path segment of /mcp/TOKEN serves
// MCP; a wrong, absent, shortened, lengthened or differently encoded one
// is 401, a longer path 404, and the header on that URL counts for
// nothing; Host and Origin are checked as on /mcp. No answer echoes the
// token.
func TestCapabilityURL(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, nil)
	const token = "the-right-token-0123456789"
	base := r.serveHTTP(HTTPOptions{Token: token})
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, tc := range []struct {
		name, path, auth, host, origin string
		want                           int
	}{
		{"right token in the path", "/mcp/" + token, "", "", "", http.StatusOK},
		{"wrong token in the path", "/mcp/wrong-token-0123456789", "", "", "", http.StatusUnauthorized},
		{"no token in the path", "/mcp/", "", "", "", http.StatusNotFound},
		{"a prefix of the token", "/mcp/" + token[:len(token)-1], "", "", "", http.StatusUnauthorized},
		{"the token and more", "/mcp/" + token + "x", "", "", "", http.StatusUnauthorized},
		{"the token as a directory", "/mcp/" + token + "/x", "", "", "", http.StatusNotFound},
		// ServeMux sends an unclean path to its clean form, to the client that sent it.
		{"the token after an empty segment", "/mcp//" + token, "", "", "", http.StatusTemporaryRedirect},
		{"the token with an escaped slash", "/mcp/" + token + "%2Fx", "", "", "", http.StatusUnauthorized},
		{"wrong path, right header", "/mcp/wrong-token-0123456789", "Bearer " + token, "", "", http.StatusUnauthorized},
		{"right path, foreign Host", "/mcp/" + token, "", "evil.example:80", "", http.StatusForbidden},
		{"right path, foreign Origin", "/mcp/" + token, "", "", "https://evil.example", http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A redirect is reported, not followed: it must not lead anywhere the token serves.
			resp, b := probe{"POST", tc.path, tc.auth, tc.host, tc.origin}.do(t, base, initialize)
			if resp.StatusCode != tc.want {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tc.want, b)
			}
			if strings.Contains(b, token) || strings.Contains(b, "wrong-token") {
				t.Errorf("the answer carries a token: %s", b)
			}
		})
	}
}

// TestCapabilityURLSession: an agent given only the capability URL (no
// header) lists and calls tools, and nothing the gateway writes to the
// person's log holds the token.
func TestCapabilityURLSession(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, nil)
	base := r.serveHTTP(HTTPOptions{Token: testToken})
	tr, err := transport.NewStreamableHTTP(base + CapabilityPath(testToken))
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, agentOptions(nil)...)
	t.Cleanup(func() { _ = c.Close() })
	a := startAgent(t, c)
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = "fa__echo"
	req.Params.Arguments = map[string]any{"text": "through the capability URL"}
	res, err := a.CallTool(ctx, req)
	if err != nil || res.IsError || len(res.Content) == 0 {
		t.Fatalf("call through the capability URL: %v %+v", err, res)
	}
	if strings.Contains(r.log.String(), testToken) {
		t.Errorf("the log holds the token:\n%s", r.log)
	}
}

// TestCapabilityPath: the token is escaped as one path segment.
func TestCapabilityPath(t *testing.T) {
	if got := CapabilityPath("abc/def?g"); got != "/mcp/abc%2Fdef%3Fg" {
		t.Errorf("CapabilityPath = %q", got)
	}
}

// TestHTTPLogMasksToken: a line the HTTP side writes that quotes a
// request's path reaches the person's log with the token masked.
func TestHTTPLogMasksToken(t *testing.T) {
	var buf bytes.Buffer
	const token = "the-right-token-0123456789"
	h := HTTPOptions{Token: token}
	w := h.logWriter(&buf)
	if _, err := io.WriteString(w, "http: something about POST "+CapabilityPath(token)+"\n"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), token) || !strings.Contains(buf.String(), "POST /mcp/") {
		t.Errorf("log line = %q", buf.String())
	}
}
