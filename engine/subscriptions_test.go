package engine

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
)

// watchServer is a streamable HTTP server with one subscribable resource
// whose text counts the reads. update announces a change of note://a to
// the sessions that subscribed to it since the last update — by
// resources/subscribe, or on 2026-07-28 by a subscriptions/listen whose
// filter names it — and only to those (mcp-go leaves this fan-out to the
// application), so an update after a reconnect arrives only if the
// subscription was renewed.
func watchServer(t *testing.T, versions ...string) (update func(*testing.T), url string) {
	t.Helper()
	subscribed := make(chan server.ClientSession, 10)
	hooks := &server.Hooks{}
	hooks.AddBeforeAny(func(ctx context.Context, _ any, method mcp.MCPMethod, msg any) {
		if method != mcp.MethodSubscriptionsListen && method != mcp.MethodResourcesSubscribe {
			return
		}
		b, _ := json.Marshal(msg)
		if strings.Contains(string(b), "note://a") {
			subscribed <- server.ClientSessionFromContext(ctx)
		}
	})
	s := server.NewMCPServer("watched", "1", server.WithResourceCapabilities(true, false), server.WithHooks(hooks))
	var reads atomic.Int64
	s.AddResource(mcp.NewResource("note://a", "a"), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		n := reads.Add(1)
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: "note://a", Text: "read " + string(rune('0'+n%10))}}, nil
	})
	var opts []server.StreamableHTTPOption
	if len(versions) > 0 {
		opts = append(opts, server.WithStreamableHTTPProtocolVersions(versions...))
	}
	h := httptest.NewServer(server.NewStreamableHTTPServer(s, opts...))
	t.Cleanup(h.Close)
	params := map[string]any{"uri": "note://a"}
	n := mcp.JSONRPCNotification{
		JSONRPC:      mcp.JSONRPC_VERSION,
		Notification: mcp.Notification{Method: mcp.MethodNotificationResourceUpdated, Params: mcp.NotificationParams{AdditionalFields: params}},
	}
	return func(t *testing.T) {
		t.Helper()
		// Every session that subscribed since the last update is told:
		// on a busy machine a connection can be replaced (and subscribe
		// again) more often than the test replaces it, and telling only
		// the first queued told a session already gone.
		var ls []server.ClientSession
		select {
		case l := <-subscribed:
			ls = append(ls, l)
		case <-time.After(30 * time.Second):
			t.Fatal("no resources/subscribe or subscriptions/listen request names note://a")
		}
		for more := true; more; {
			select {
			case l := <-subscribed:
				ls = append(ls, l)
			default:
				more = false
			}
		}
		told := map[string]bool{} // a session that subscribed twice is told once
		for _, l := range ls {
			if told[l.SessionID()] {
				continue
			}
			told[l.SessionID()] = true
			select {
			case l.NotificationChannel() <- n:
			default: // a session gone, its channel full
			}
		}
	}, h.URL
}

// TestWatchedResourceFollowsUpdatesAcrossReconnects: a watched resource is
// read at once, read again on each update, and still followed after a
// reconnect (the subscription is renewed on the new session); unwatching
// stops it. Both protocol styles: resources/subscribe before 2026-07-28,
// the subscriptions/listen filter on it.
func TestWatchedResourceFollowsUpdatesAcrossReconnects(t *testing.T) {
	for _, version := range []string{mcp.ProtocolVersion20260728, "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			notify, url := watchServer(t, version)
			e := realEngine(t, map[string]any{"w": map[string]any{"type": "http", "url": url, "protocolVersion": version}}, nil, nil)
			if err := e.Start(t.Context()); err != nil {
				t.Fatal(err)
			}
			await(t, e, "w", "connected", inState(model.StateConnected))
			if err := e.Watch(t.Context(), "w", "note://a"); err != nil {
				t.Fatal(err)
			}
			await(t, e, "w", "first read", func(s ServerSnapshot) bool {
				return len(s.Watched) == 1 && len(s.Watched[0].Contents) == 1
			})
			update := func(want int) {
				t.Helper()
				notify(t)
				await(t, e, "w", "update re-read", func(s ServerSnapshot) bool {
					return len(s.Watched) == 1 && s.Watched[0].Updates == want && !s.Watched[0].ReadAt.Before(s.Watched[0].ChangedAt)
				})
			}
			update(1)
			if err := e.Reconnect(t.Context(), "w"); err != nil {
				t.Fatal(err)
			}
			await(t, e, "w", "reconnected", func(s ServerSnapshot) bool {
				return s.State == model.StateConnected && len(s.History) >= 2
			})
			update(2)
			if err := e.Unwatch(t.Context(), "w", "note://a"); err != nil {
				t.Fatal(err)
			}
			if got := e.Snapshot(); len(got.Servers[0].Watched) != 0 {
				t.Fatalf("still watched: %+v", got.Servers[0].Watched)
			}
		})
	}
}

// TestWatchNeedsSubscriptions: a server that does not advertise
// resources.subscribe is refused with ErrNoSubscriptions.
func TestWatchNeedsSubscriptions(t *testing.T) {
	s := server.NewMCPServer("plain", "1", server.WithResourceCapabilities(false, false))
	h := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(h.Close)
	e := realEngine(t, map[string]any{"p": map[string]any{"type": "http", "url": h.URL}}, nil, nil)
	if err := e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "p", "connected", inState(model.StateConnected))
	if err := e.Watch(t.Context(), "p", "note://a"); err == nil || !errors.Is(err, ErrNoSubscriptions) {
		t.Fatalf("err %v, want ErrNoSubscriptions", err)
	}
}
