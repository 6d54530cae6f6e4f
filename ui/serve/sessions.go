package serve

import (
	"context"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/engine/lock"
	"github.com/mcpdeck/mcpdeck/ui/serve/inorder"
)

// sessions is the part that knows the agents: their sessions as mcp-go
// registers them, and their resource subscriptions (subscribe.go). What
// goes to every agent (a server's log messages, a resource's updates)
// goes through it.
type sessions struct {
	g *Gateway

	// logFallback also gets every server's log message (the engine
	// options' own OnLog: stderr).
	logFallback func(string, engine.LogEntry)

	mu   sync.Mutex
	byID map[string]server.ClientSession
	subs subscriptions // the agents' resource subscriptions (subscribe.go)
}

// register records a session mcp-go registered.
func (ss *sessions) register(_ context.Context, s server.ClientSession) {
	lock.With(&ss.mu, func() { ss.byID[s.SessionID()] = s })
}

// unregister forgets a session that ended, and its subscriptions.
func (ss *sessions) unregister(_ context.Context, s server.ClientSession) {
	lock.With(&ss.mu, func() { delete(ss.byID, s.SessionID()) })
	ss.drop(ss.g.base, s.SessionID(), "")
}

// has reports whether id is a session this gateway registered.
func (ss *sessions) has(id string) (ok bool) {
	lock.With(&ss.mu, func() { _, ok = ss.byID[id] })
	return ok
}

// onLog passes a server's log message to every agent session (each gets
// what its logging/setLevel asked for) and to the fallback (stderr). A
// session with a request in flight on that server gets it on that
// request's stream, ahead of the request's result (inorder), as the
// server sent it before its own answer; others get it on the session.
func (ss *sessions) onLog(name string, l engine.LogEntry) {
	if ss.logFallback != nil {
		ss.logFallback(name, l)
	}
	if !ss.g.f.server(name) {
		return
	}
	logger := name
	if l.Logger != "" {
		logger += "/" + l.Logger
	}
	n := mcp.NewLoggingMessageNotification(mcp.LoggingLevel(l.Level), logger, l.Data)
	var ids []string
	lock.With(&ss.mu, func() {
		ids = make([]string, 0, len(ss.byID))
		for id := range ss.byID {
			ids = append(ids, id)
		}
	})
	during := ss.g.routes.requestsOn(name)
	for _, id := range ids {
		if ctx, ok := during[id]; ok && sendLogDuring(ctx, ss.g.srv, n) {
			continue
		}
		_ = ss.g.srv.SendLogMessageToSpecificClient(id, n)
	}
}

// sendLogDuring sends n on the agent request in ctx when its session
// takes log messages at n's level, and reports whether it took it in
// hand (sent, or not wanted at that level).
func sendLogDuring(ctx context.Context, srv *server.MCPServer, n mcp.LoggingMessageNotification) bool {
	s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithLogging)
	if !ok || !s.Initialized() {
		return false
	}
	if !n.Params.Level.ShouldSendTo(s.GetLogLevel()) {
		return true
	}
	params := map[string]any{"level": n.Params.Level, "data": n.Params.Data}
	if n.Params.Logger != "" {
		params["logger"] = n.Params.Logger
	}
	return inorder.Send(ctx, srv, string(mcp.MethodNotificationMessage), params) == nil
}
