package serve

import (
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/engine/lock"
)

// TestAgentSubscribesToAResource: an agent's resources/subscribe reaches
// the server offering the URI (the fault server's ticker then changes),
// each change reaches the agent as notifications/resources/updated, and
// its unsubscribe ends the engine's watch.
func TestAgentSubscribesToAResource(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, nil)
	a := r.stdioAgent() // over HTTP, updates need the agent's GET stream
	const uri = "fault://ticker"
	if err := a.Subscribe( //nolint:staticcheck // agents on 2025-11-25 subscribe so
		t.Context(), mcp.SubscribeRequest{Params: mcp.SubscribeParams{URI: uri}}); err != nil {
		t.Fatalf("resources/subscribe: %v", err)
	}
	n := a.note(t, string(mcp.MethodNotificationResourceUpdated), "the ticker's update")
	if got, _ := n.Params.AdditionalFields["uri"].(string); got != uri {
		t.Errorf("updated %q, want %s", got, uri)
	}
	if err := a.Unsubscribe( //nolint:staticcheck // agents on 2025-11-25 unsubscribe so
		t.Context(), mcp.UnsubscribeRequest{Params: mcp.UnsubscribeParams{URI: uri}}); err != nil {
		t.Fatalf("resources/unsubscribe: %v", err)
	}
	r.waitFor("the watch to end", func(g *Gateway) bool {
		for _, s := range g.lists.lastSnapshot().Servers {
			if s.Name == "fa" {
				return !slices.ContainsFunc(s.Watched, func(w engine.WatchedResource) bool { return w.URI == uri })
			}
		}
		return false
	})
}

// TestSubscribeToAnUnknownResource: a URI no offered server claims (two
// servers, neither lists it) is acknowledged, and the person is told the
// agent gets no updates for it.
func TestSubscribeToAnUnknownResource(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil), "fb": fault(nil, nil)}, Options{}, nil)
	a := r.httpAgent()
	if err := a.Subscribe( //nolint:staticcheck // agents on 2025-11-25 subscribe so
		t.Context(), mcp.SubscribeRequest{Params: mcp.SubscribeParams{URI: "nowhere://x"}}); err != nil {
		t.Fatalf("resources/subscribe: %v", err)
	}
	if want := "subscribed to nowhere://x, which no offered server offers"; !strings.Contains(r.log.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, r.log)
	}
}

// TestSubscribeThatFailsIsForgotten: a subscribe the server cannot take
// (it is not connected) is told to the person and not kept, so the next
// subscribe to the URI tries again.
func TestSubscribeThatFailsIsForgotten(t *testing.T) {
	r := newRig(t, map[string]any{"gone": map[string]any{"command": "/nonexistent/mcp-server"}}, Options{}, nil)
	a := r.stdioAgent()
	if err := a.Subscribe( //nolint:staticcheck // agents on 2025-11-25 subscribe so
		t.Context(), mcp.SubscribeRequest{Params: mcp.SubscribeParams{URI: "gone://x"}}); err != nil {
		t.Fatalf("resources/subscribe: %v", err)
	}
	if want := "subscribing to gone://x on gone: "; !strings.Contains(r.log.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, r.log)
	}
	var kept int
	lock.With(&r.gw.sessions.mu, func() { kept = len(r.gw.sessions.subs.sessions) })
	if kept != 0 {
		t.Errorf("%d failed subscriptions kept", kept)
	}
}
