package oauth

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestSignInToAServerThatNeverAsked: `mcpdeck auth` on a server that lets
// every request through and publishes no OAuth metadata says the server
// did not ask for sign-in, instead of "no client identity: the server
// offers no dynamic registration".
func TestSignInToAServerThatNeverAsked(t *testing.T) {
	e := newEnv(t, nil)
	open := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || strings.Contains(r.URL.Path, ".well-known") {
			http.NotFound(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(string(body), `"initialize"`) {
			w.Header().Set("Mcp-Session-Id", "s1")
			io.WriteString(w, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"open","version":"1"}}}`)
			return
		}
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`)
	}))
	t.Cleanup(open.Close)
	srv := model.Server{
		Name: "open", Scope: model.ScopeUser, Hash: "0123456789abcdef0123",
		Config:  model.ServerConfig{Type: model.TransportHTTP, URL: open.URL + "/mcp"},
		Enabled: true, Policy: model.PolicyDecision{Allowed: true},
	}
	err := e.m.Authenticate(context.Background(), srv, e.showURL)
	if !errors.Is(err, ErrNotAsked) || errors.Is(err, ErrNoClient) || !strings.Contains(err.Error(), "did not ask for sign-in") {
		t.Errorf("Authenticate = %v, want ErrNotAsked", err)
	}
}

// TestNoSignInWhereTheTableSaysNone: a WebSocket or stdio server is refused
// before any request (ErrNoSignIn): only the transports whose row says
// OAuth sign in.
func TestNoSignInWhereTheTableSaysNone(t *testing.T) {
	e := newEnv(t, nil)
	for _, cfg := range []model.ServerConfig{
		{Type: model.TransportWS, URL: "ws://127.0.0.1:1/mcp"},
		{Command: "server"},
	} {
		srv := model.Server{
			Name: "x", Scope: model.ScopeUser, Hash: "0123456789abcdef0123", Config: cfg,
			Enabled: true, Policy: model.PolicyDecision{Allowed: true},
		}
		if err := e.m.Authenticate(context.Background(), srv, e.showURL); !errors.Is(err, model.ErrNoSignIn) {
			t.Errorf("Authenticate(%s) = %v, want ErrNoSignIn", cfg.EffectiveType(), err)
		}
	}
}

// TestSignInToAServerThatWantsAHeader: a server that answers 401 with a
// plain Bearer challenge, publishes no OAuth metadata and has no default
// /authorize (mcpdeck serve --http, an API behind a static token) wants a
// token in a header: signing in says so, instead of "no client identity
// … set oauth.clientId".
func TestSignInToAServerThatWantsAHeader(t *testing.T) {
	e := newEnv(t, nil)
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/mcp" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="gateway"`)
		http.Error(w, "token needed", http.StatusUnauthorized)
	}))
	t.Cleanup(gw.Close)
	srv := model.Server{
		Name: "gw", Scope: model.ScopeUser, Hash: "0123456789abcdef0123",
		Config:  model.ServerConfig{Type: model.TransportHTTP, URL: gw.URL + "/mcp"},
		Enabled: true, Policy: model.PolicyDecision{Allowed: true},
	}
	err := e.m.Authenticate(context.Background(), srv, e.showURL)
	if !errors.Is(err, ErrWantsHeader) || errors.Is(err, ErrNoClient) || !strings.Contains(err.Error(), `-H "Authorization: Bearer ${TOKEN}"`) {
		t.Errorf("Authenticate = %v, want ErrWantsHeader", err)
	}
}
