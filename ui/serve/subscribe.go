package serve

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine"
)

// An agent's resources/subscribe is passed to the server offering the
// URI: the engine watches it there (subscribes, renews the subscription
// on each reconnect), and every change the engine then sees is sent to
// each agent session subscribed to it as notifications/resources/updated.
// The last unsubscribe, or the end of the last subscribed session, ends
// the watch.

// subscriptions are the agents' resource subscriptions.
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
func (g *Gateway) subscribe(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
	s := server.ClientSessionFromContext(ctx)
	srv := g.resourceServer(req.Params.URI)
	if s == nil || srv == "" {
		g.note("an agent subscribed to " + req.Params.URI + ", which no offered server offers: it gets no updates")
		return
	}
	k := watchKey{srv, req.Params.URI}
	g.mu.Lock()
	first := len(g.subs.sessions[k]) == 0
	if g.subs.sessions == nil {
		g.subs.sessions, g.subs.updates = map[watchKey]map[string]bool{}, map[watchKey]int{}
	}
	if g.subs.sessions[k] == nil {
		g.subs.sessions[k] = map[string]bool{}
	}
	g.subs.sessions[k][s.SessionID()] = true
	g.mu.Unlock()
	if !first {
		return
	}
	if err := g.eng.Watch(ctx, srv, req.Params.URI); err != nil {
		g.note("subscribing to " + req.Params.URI + " on " + srv + ": " + err.Error())
		g.mu.Lock()
		delete(g.subs.sessions, k) // the next subscribe tries again
		g.mu.Unlock()
	}
}

// unsubscribe runs after an agent's resources/unsubscribe.
func (g *Gateway) unsubscribe(ctx context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
	if s := server.ClientSessionFromContext(ctx); s != nil {
		g.dropSubscriptions(ctx, s.SessionID(), req.Params.URI)
	}
}

// dropSubscriptions removes session's subscription to uri (every one of
// them when uri is ""), ending the engine's watch of a resource nobody
// is subscribed to any more.
func (g *Gateway) dropSubscriptions(ctx context.Context, session, uri string) {
	var ended []watchKey
	g.mu.Lock()
	for k, ss := range g.subs.sessions {
		if (uri != "" && k.uri != uri) || !ss[session] {
			continue
		}
		delete(ss, session)
		if len(ss) == 0 {
			delete(g.subs.sessions, k)
			delete(g.subs.updates, k)
			ended = append(ended, k)
		}
	}
	g.mu.Unlock()
	for _, k := range ended {
		if err := g.eng.Unwatch(ctx, k.server, k.uri); err != nil {
			g.note("unsubscribing from " + k.uri + " on " + k.server + ": " + err.Error())
		}
	}
}

// resourceServer is the offered server a URI belongs to: the one listing
// it, else the one whose template matches it, else the only server
// offered; "" when none is known.
func (g *Gateway) resourceServer(uri string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if srv, ok := g.x.resourceRoutes[uri]; ok {
		return srv
	}
	for _, t := range g.x.templates {
		if t.URITemplate != nil && t.URITemplate.Regexp().MatchString(uri) {
			return g.x.templateRoutes[t.URITemplate.Raw()]
		}
	}
	only := ""
	for i := range g.snap.Servers {
		if s := &g.snap.Servers[i]; g.f.exposes(s) {
			if only != "" {
				return ""
			}
			only = s.Name
		}
	}
	return only
}

// updatedLocked lists, for snap, each subscribed resource the engine saw
// change since last time, with the sessions to tell. Callers hold g.mu.
func (g *Gateway) updatedLocked(snap engine.Snapshot) map[string][]string {
	out := map[string][]string{}
	for i := range snap.Servers {
		s := &snap.Servers[i]
		for _, w := range s.Watched {
			k := watchKey{s.Name, w.URI}
			ss := g.subs.sessions[k]
			if len(ss) == 0 || w.Updates <= g.subs.updates[k] {
				continue
			}
			g.subs.updates[k] = w.Updates
			for id := range ss {
				out[id] = append(out[id], w.URI)
			}
		}
	}
	return out
}

// sendUpdates sends each session notifications/resources/updated for the
// resources updatedLocked found changed.
func (g *Gateway) sendUpdates(updated map[string][]string) {
	for id, uris := range updated {
		for _, uri := range uris {
			_ = g.srv.SendNotificationToSpecificClient(id, string(mcp.MethodNotificationResourceUpdated), map[string]any{"uri": uri})
		}
	}
}
