package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// tickerURI is a resource that changes three times, 50 ms apart, once a
// client subscribes to it: its text is "tick N".
const tickerURI = "fault://ticker"

// ticker is that resource: the server it announces changes through (set
// once built) and the number of changes so far.
type ticker struct {
	s     *server.MCPServer
	ticks atomic.Int64
}

// options are the server options the ticker needs: subscribable resources,
// and (added to hooks) the hook that starts the ticks on subscribe.
func (t *ticker) options(hooks *server.Hooks) []server.ServerOption {
	hooks.AddAfterSubscribe(func(_ context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		if req.Params.URI != tickerURI {
			return
		}
		go func() {
			tk := time.NewTicker(50 * time.Millisecond)
			defer tk.Stop()
			for range 3 {
				<-tk.C
				t.ticks.Add(1)
				t.s.SendNotificationToAllClients(mcp.MethodNotificationResourceUpdated, map[string]any{"uri": tickerURI})
			}
		}()
	})
	return []server.ServerOption{server.WithResourceCapabilities(true, false)}
}

// add registers the resource on s, the server the ticks go through.
func (t *ticker) add(s *server.MCPServer) {
	t.s = s
	s.AddResource(mcp.NewResource(tickerURI, "ticker", mcp.WithMIMEType("text/plain")),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: tickerURI, MIMEType: "text/plain", Text: fmt.Sprintf("tick %d", t.ticks.Load())}}, nil
		})
}
