package transports

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model/lock"
)

// Subscribe asks the server for notifications/resources/updated about uri
// (on false, to stop). Before 2026-07-28 that is a resources/subscribe (or
// unsubscribe) request; on 2026-07-28 the URI joins (or leaves) the filter
// of the subscriptions/listen stream, which is reopened with it.
func (c *Conn) Subscribe(ctx context.Context, uri string, on bool) error {
	var err error
	if on {
		req := mcp.SubscribeRequest{}
		req.Params.URI = uri
		err = c.client.Subscribe(ctx, req) //nolint:staticcheck // deprecated for 2026-07-28, where it only records the URI for Listen (see above)
	} else {
		req := mcp.UnsubscribeRequest{}
		req.Params.URI = uri
		err = c.client.Unsubscribe(ctx, req) //nolint:staticcheck // as Subscribe
	}
	if err != nil {
		return err
	}
	if init := c.Init(); init != nil && mcp.IsModernProtocol(init.ProtocolVersion) {
		c.restartListening(init)
	}
	return nil
}

// restartListening reopens the listen stream with the current filter.
func (c *Conn) restartListening(init *mcp.InitializeResult) {
	lock.With(&c.closeMu, func() {
		if c.closed {
			return
		}
		if c.listenStop != nil {
			c.listenStop()
			<-c.listenDone
			c.listenStop, c.listenDone = nil, nil
		}
		c.startListening(init)
	})
}
