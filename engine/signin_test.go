package engine

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestSignInFollowsTheTransportTable: one signs in to the transports whose
// row says OAuth (sse and http), and to no other, whatever else they share:
// a WebSocket server is remote and sends headers, but Authenticate refuses
// it before asking the Authenticator, and a needs-auth mark cached for it
// does not hold it in needs-auth (nothing could clear the mark).
func TestSignInFollowsTheTransportTable(t *testing.T) {
	ws := stdioServer("w")
	ws.Config = model.ServerConfig{Type: model.TransportWS, URL: "wss://example.com/mcp"}
	_, http := signInNet()
	auth := &fakeAuth{fail: errors.New("the Authenticator was asked")}
	auth.needs.Store(true)
	if got := cachedNeedsAuth(auth, []model.Server{ws, http}); got["w"] || !got["r"] {
		t.Errorf("cached needs-auth = %v, want r and not w", got)
	}
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["w"] = demoServer
		e := newTestEngine(t, n, ws)
		e.opts.Auth = auth
		mustStart(t, e)
		if err := e.Authenticate(context.Background(), "w"); !errors.Is(err, model.ErrNoSignIn) {
			t.Errorf("Authenticate(ws) = %v, want ErrNoSignIn", err)
		}
	})
}
