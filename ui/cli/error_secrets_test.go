package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// leakedSecrets are the credentials the servers of TestErrorsShowNoSecrets
// carry; none may appear in any output.
var leakedSecrets = []string{"pw-SECRET0", "SECRET1-key", "SECRET2-token", "SECRET3-bearer", "SECRET4-query"}

// echoingServer is an MCP server that fails by repeating the request's
// credentials: /fail answers every request with HTTP 500 and a body naming
// the Authorization header and the request URI; /mcp is a working server
// with one tool whose call fails the same way.
func echoingServer(t *testing.T) *httptest.Server {
	t.Helper()
	s := server.NewMCPServer("echo", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("ping"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("pong"), nil
	})
	mcpHandler := server.NewStreamableHTTPServer(s, server.WithStateLess(true))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if r.URL.Path == "/fail" || bytes.Contains(body, []byte(`"tools/call"`)) {
			http.Error(w, fmt.Sprintf("refused %s with Authorization: %s", r.URL.RequestURI(), r.Header.Get("Authorization")), http.StatusInternalServerError)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestErrorsShowNoSecrets runs every command that shows a server's error
// against servers whose URL and headers carry credentials and whose
// failures repeat them: no credential may reach stdout or stderr, --json
// included.
func TestErrorsShowNoSecrets(t *testing.T) {
	echo := echoingServer(t)
	e := clitest.NewEnv(t)
	e.Extra = append(e.Extra, "LEAK_TOKEN=SECRET3-bearer")
	down := fmt.Sprintf("http://user:pw-SECRET0@127.0.0.1:%d/mcp?api_key=SECRET1-key&access_token=SECRET2-token", clitest.ClosedPort(t))
	headers := map[string]string{"Authorization": "Bearer ${LEAK_TOKEN}"}
	cfg := clitest.EngServers(t, map[string]any{
		"down":      map[string]any{"type": "http", "url": down},
		"echo-fail": map[string]any{"type": "http", "url": echo.URL + "/fail?api_key=SECRET4-query", "headers": headers},
		"echo":      map[string]any{"type": "http", "url": echo.URL + "/mcp?api_key=SECRET4-query", "headers": headers},
	})
	check := func(args []string, r clitest.Result) {
		t.Helper()
		for _, s := range leakedSecrets {
			if strings.Contains(r.Stdout, s) || strings.Contains(r.Stderr, s) {
				t.Errorf("mcpdeck %s shows %s:\n%s", strings.Join(args, " "), s, r)
			}
		}
	}
	for _, args := range [][]string{
		{"--mcp-config", cfg, "mcp", "list"},
		{"--mcp-config", cfg, "--json", "mcp", "list"},
		{"--mcp-config", cfg, "mcp", "get", "down"},
		{"--mcp-config", cfg, "mcp", "get", "echo-fail"},
		{"--mcp-config", cfg, "mcp", "get", "echo", "--json"},
		{"--mcp-config", cfg, "call", "down", "ping"},
		{"--mcp-config", cfg, "call", "echo-fail", "ping"},
		{"--mcp-config", cfg, "call", "echo", "ping"},
		{"--mcp-config", cfg, "--json", "call", "echo", "ping"},
	} {
		r := e.Run(args...)
		if r.Code == 0 && args[len(args)-2] == "call" {
			t.Errorf("mcpdeck %s should fail: %s", strings.Join(args, " "), r)
		}
		check(args, r)
	}
	// the failures are still explained, with the secrets masked
	r := e.Run("--mcp-config", cfg, "--json", "mcp", "list")
	for _, want := range []string{"refused", "HTTP 500", "****"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("mcp list --json should still explain the failures (%q):\n%s", want, r.Stdout)
		}
	}
	r = e.Run("--mcp-config", cfg, "call", "echo", "ping")
	if !strings.Contains(r.Stderr, "HTTP 500") || !strings.Contains(r.Stderr, "Bearer ****") && !strings.Contains(r.Stderr, "Authorization: ****") {
		t.Errorf("call should explain the failure with the credential masked:\n%s", r)
	}
}
