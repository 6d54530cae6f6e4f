package transports

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// On a 2026-07-28 session the server sends list_changed notifications only
// to a client that opted in with a subscriptions/listen request, whose
// answer is a stream held open until the client ends it; it replaces the
// standalone GET stream of older sessions over streamable HTTP, which also
// told us when the server went away between calls. listen keeps such a
// stream open for the life of the connection and treats its failure like a
// failing GET stream.

// listenRetry is the pause before reopening a listen stream that ended.
const listenRetry = time.Second

// listenFilter asks for every list change the server says it announces
// (nothing if it announces none), plus resource subscriptions recorded
// through the client.
func (c *Conn) listenFilter(res *mcp.InitializeResult) mcp.SubscriptionFilter {
	f := c.client.PendingSubscriptionFilter()
	caps := res.Capabilities
	f.ToolsListChanged = caps.Tools != nil && caps.Tools.ListChanged
	f.PromptsListChanged = caps.Prompts != nil && caps.Prompts.ListChanged
	f.ResourcesListChanged = caps.Resources != nil && caps.Resources.ListChanged
	return f
}

// startListening opens the listen stream on a 2026-07-28 session whose
// server announces list changes. The goroutine ends with Close.
func (c *Conn) startListening(res *mcp.InitializeResult) {
	if !mcp.IsModernProtocol(res.ProtocolVersion) {
		return
	}
	filter := c.listenFilter(res)
	if filter.IsEmpty() {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.listenStop, c.listenDone = cancel, make(chan struct{})
	go func() {
		defer close(c.listenDone)
		c.listenLoop(ctx, filter)
	}()
}

// listenLoop reopens the stream after it ended. maxStreamFailures transport
// failures in a row mean the connection is lost (a refused reopen already
// reports that through the round tripper); a server that answers the
// request with an error or a 4xx does not offer the stream, and we stop
// asking. A server that closes the stream cleanly gets it reopened, unless
// it did so maxStreamFailures times in a row right after opening.
func (c *Conn) listenLoop(ctx context.Context, filter mcp.SubscriptionFilter) {
	failures, quickEnds := 0, 0
	wait := time.NewTimer(listenRetry)
	defer wait.Stop()
	for {
		opened := time.Now()
		err := c.client.Listen(ctx, filter)
		if ctx.Err() != nil || c.isDone() {
			return
		}
		var terr *transport.Error
		switch {
		case err == nil && time.Since(opened) < listenHealthy:
			failures = 0
			if quickEnds++; quickEnds >= maxStreamFailures {
				return // the server does not hold the stream open
			}
		case err == nil:
			failures, quickEnds = 0, 0
		case !errors.As(err, &terr) || c.listenRefused():
			return
		case time.Since(opened) > listenHealthy:
			failures = 1
		default:
			failures++
		}
		if failures >= maxStreamFailures {
			c.lost(fmt.Errorf("%w: the subscriptions/listen stream failed %d times in a row: %w", ErrConnectionLost, failures, err))
			return
		}
		wait.Reset(listenRetry)
		select {
		case <-wait.C:
		case <-ctx.Done():
			return
		case <-c.done:
			return
		}
	}
}

// listenHealthy is how long a listen stream must have lasted for its
// failure to count as the first of a new series.
const listenHealthy = 10 * time.Second

// listenRefused reports whether the server answered the last listen request
// over HTTP with a 4xx status: it does not offer the stream.
func (c *Conn) listenRefused() bool {
	if c.rt == nil {
		return false
	}
	s := c.rt.listenStatus.Load()
	return s >= 400 && s < 500
}

// isDone reports whether Done is closed.
func (c *Conn) isDone() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}
