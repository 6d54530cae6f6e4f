package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine/callerr"
	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
	"github.com/mcpdeck/mcpdeck/model"
)

// scopeAuth is a fakeAuth that knows the scopes the server refused.
type scopeAuth struct {
	fakeAuth
	missing []string
}

func (a *scopeAuth) MissingScopes(model.Server) []string { return a.missing }

// TestCallReportsMissingScopeNotUnknownTool checks that when the server let
// the handshake through but refused tools/list for lack of a scope, a call
// says which scope the sign-in lacks and how to get it, not "no such tool".
func TestCallReportsMissingScopeNotUnknownTool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["r"] = func() *server.MCPServer {
			h := &server.Hooks{}
			h.AddOnRequestInitialization(func(_ context.Context, _ any, msg any) error {
				if b, ok := msg.(json.RawMessage); ok && strings.Contains(string(b), `"tools/list"`) {
					return errors.New("HTTP 403 insufficient_scope")
				}
				return nil
			})
			srv := server.NewMCPServer("r", "1", server.WithHooks(h), server.WithToolCapabilities(true))
			srv.AddTool(mcp.NewTool("t"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil })
			return srv
		}
		srv := stdioServer("r")
		srv.Config = model.ServerConfig{Type: model.TransportHTTP, URL: "https://example.com/mcp"}
		e := newTestEngine(t, n, srv)
		e.errs.classify = func(err error) (lifecycle.ErrClass, string) {
			if strings.Contains(err.Error(), "403") {
				return lifecycle.ClassAuth, "auth"
			}
			return lifecycle.ClassOther, "error"
		}
		auth := &scopeAuth{missing: []string{"mcp:write"}}
		e.opts.Auth = auth
		mustStart(t, e)
		current(t, e, "r")
		_, err := e.CallTool(context.Background(), "r", "t", map[string]any{}, nil)
		if err == nil || errors.Is(err, ErrUnknownTool) || !errors.Is(err, callerr.ErrMissingScope) {
			t.Fatalf("CallTool: %v; want callerr.ErrMissingScope, not ErrUnknownTool", err)
		}
		if want := "sign-in to r lacks scope mcp:write: run mcpdeck auth r"; !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
		// Without known scopes the refusal itself is reported.
		auth.missing = nil
		_, err = e.CallTool(context.Background(), "r", "t", map[string]any{}, nil)
		if err == nil || errors.Is(err, ErrUnknownTool) || !strings.Contains(err.Error(), "refused to list its tools") {
			t.Errorf("CallTool without scopes: %v", err)
		}
		// A tool the server does not have, with the list given, stays unknown.
	})
}
