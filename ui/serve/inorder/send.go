package inorder

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type streamKey struct{}

// Send sends a notification about the request being handled in ctx: on
// the request's Stream when it has one (HTTP and Lines put it in ctx),
// else as srv.SendNotificationToClient does.
func Send(ctx context.Context, srv *server.MCPServer, method string, params map[string]any) error {
	s, _ := ctx.Value(streamKey{}).(*Stream)
	if s == nil {
		return srv.SendNotificationToClient(ctx, method, params)
	}
	session := server.ClientSessionFromContext(ctx)
	if session == nil || !session.Initialized() {
		return server.ErrNotificationNotInitialized
	}
	msg, err := json.Marshal(mcp.JSONRPCNotification{
		JSONRPC:      mcp.JSONRPC_VERSION,
		Notification: mcp.Notification{Method: method, Params: mcp.NotificationParams{AdditionalFields: params}},
	})
	if err != nil {
		return err
	}
	// mcp-go answers with SSE once the session was sent a notification;
	// told first, it writes the result as an event after the queue.
	if up, ok := session.(server.SessionWithStreamableHTTPConfig); ok {
		up.UpgradeToSSEWhenReceiveNotification()
	}
	if s.enqueue(msg, func() { _ = srv.SendNotificationToClient(ctx, method, params) }) {
		return nil
	}
	return srv.SendNotificationToClient(ctx, method, params)
}
