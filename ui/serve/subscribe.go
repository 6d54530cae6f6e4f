package serve

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/engine/lock"
)

// An agent's resources/subscribe is passed to the server offering the
// URI: the engine watches it there (subscribes, renews the subscription
// on each reconnect), and every change the engine then sees is sent to
// each agent session subscribed to it as notifications/resources/updated.
// The last unsubscribe, or the end of the last subscribed session, ends
// the watch.

// subscriptions are the agents' resource subscriptions, guarded by
// sessions.mu.
type subscriptions struct {
	// sessions holds, per watched resource, the agent sessions
	// subscribed to it.
	sessions map[watchKey]map[string]bool
	// updates is each watched resource's update count last sent on.
	updates map[watchKey]int
}

// watchKey is one resource of one server.
type watchKey struct{ server, uri string }

// subscribe runs after mcp-go acknowledged an agent's resources/subscribe:
// the first subscriber of a resource starts the engine's watch. A URI no
// offered server claims, or a server that cannot subscribe, is told to
// the person (the agent has its acknowledgement; it gets no updates).
func (ss *sessions) subscribe(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
	g := ss.g
	s := server.ClientSessionFromContext(ctx)
	srv := g.lists.resourceServer(req.Params.URI)
	if s == nil || srv == "" {
		g.note("an agent subscribed to " + req.Params.URI + ", which no offered server offers: it gets no updates")
		return
	}
	k := watchKey{srv, req.Params.URI}
	var first bool
	lock.With(&ss.mu, func() {
		first = len(ss.subs.sessions[k]) == 0
		if ss.subs.sessions == nil {
			ss.subs.sessions, ss.subs.updates = map[watchKey]map[string]bool{}, map[watchKey]int{}
		}
		if ss.subs.sessions[k] == nil {
			ss.subs.sessions[k] = map[string]bool{}
		}
		ss.subs.sessions[k][s.SessionID()] = true
	})
	if !first {
		return
	}
	if err := g.eng.Watch(ctx, srv, req.Params.URI); err != nil {
		g.note("subscribing to " + req.Params.URI + " on " + srv + ": " + err.Error())
		lock.With(&ss.mu, func() { delete(ss.subs.sessions, k) }) // the next subscribe tries again
	}
}

// unsubscribe runs after an agent's resources/unsubscribe.
func (ss *sessions) unsubscribe(ctx context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
	if s := server.ClientSessionFromContext(ctx); s != nil {
		ss.drop(ctx, s.SessionID(), req.Params.URI)
	}
}

// drop removes session's subscription to uri (every one of them when uri
// is ""), ending the engine's watch of a resource nobody is subscribed to
// any more.
func (ss *sessions) drop(ctx context.Context, session, uri string) {
	var ended []watchKey
	lock.With(&ss.mu, func() {
		for k, subscribed := range ss.subs.sessions {
			if (uri != "" && k.uri != uri) || !subscribed[session] {
				continue
			}
			delete(subscribed, session)
			if len(subscribed) == 0 {
				delete(ss.subs.sessions, k)
				delete(ss.subs.updates, k)
				ended = append(ended, k)
			}
		}
	})
	for _, k := range ended {
		if err := ss.g.eng.Unwatch(ctx, k.server, k.uri); err != nil {
			ss.g.note("unsubscribing from " + k.uri + " on " + k.server + ": " + err.Error())
		}
	}
}

// updated lists, for snap, each subscribed resource the engine saw
// change since last time, with the sessions to tell.
func (ss *sessions) updated(snap engine.Snapshot) map[string][]string {
	out := map[string][]string{}
	lock.With(&ss.mu, func() {
		for i := range snap.Servers {
			s := &snap.Servers[i]
			for _, w := range s.Watched {
				k := watchKey{s.Name, w.URI}
				subscribed := ss.subs.sessions[k]
				if len(subscribed) == 0 || w.Updates <= ss.subs.updates[k] {
					continue
				}
				ss.subs.updates[k] = w.Updates
				for id := range subscribed {
					out[id] = append(out[id], w.URI)
				}
			}
		}
	})
	return out
}

// sendUpdates sends each session notifications/resources/updated for the
// resources updated found changed.
func (ss *sessions) sendUpdates(updated map[string][]string) {
	for id, uris := range updated {
		for _, uri := range uris {
			_ = ss.g.srv.SendNotificationToSpecificClient(id, string(mcp.MethodNotificationResourceUpdated), map[string]any{"uri": uri})
		}
	}
}
