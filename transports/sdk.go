package transports

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
)

// openSDK connects in-process to the built-in server cfg.Name. A fresh server
// instance is built per Open. Elicitation, sampling and roots reach our
// handlers through mcp-go's in-process session. The client runs over
// sdkTransport, so results go through TakeResult as on every other
// transport.
func openSDK(ctx context.Context, c *Conn, cfg model.ServerConfig, opts Options) error {
	build := opts.Builtins[cfg.Name]
	if build == nil {
		return fmt.Errorf("%w: %q", ErrNoBuiltin, cfg.Name)
	}
	srv := build()
	if srv == nil {
		return fmt.Errorf("%w: %q built nothing", ErrNoBuiltin, cfg.Name)
	}
	var handlers []transport.InProcessOption
	if opts.Elicit != nil {
		handlers = append(handlers, transport.WithElicitationHandler(elicitFunc(func(ctx context.Context, r mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
			return answered(opts.Elicit(ctx, r))
		})))
	}
	if opts.Sample != nil {
		handlers = append(handlers, transport.WithSamplingHandler(sampleFunc(func(ctx context.Context, r mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return answered(opts.Sample(ctx, r))
		})))
	}
	if opts.Roots != nil {
		handlers = append(handlers, transport.WithRootsHandler(rootsFunc(opts.Roots)))
	}
	cl := client.NewClient(sdkTransport{transport.NewInProcessTransportWithOptions(srv, handlers...)}, clientOptions(opts, true)...)
	c.client = cl
	c.shutdown = func(context.Context) error { return cl.Close() }
	return cl.Start(context.WithoutCancel(ctx))
}

// errNoAnswer is a handler's nil result without an error.
var errNoAnswer = errors.New("the handler returned no result")

// answered turns a handler's nil result into an error, as the server
// expects one or the other.
func answered[T any](r *T, err error) (*T, error) {
	if err == nil && r == nil {
		return nil, errNoAnswer
	}
	return r, err
}

// sdkTransport is mcp-go's in-process transport with results handed to
// TakeResult.
type sdkTransport struct{ transport.Interface }

func (t sdkTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	resp, err := t.Interface.SendRequest(ctx, req)
	if err == nil {
		noteResult(ctx, req.Method, resp)
	}
	return resp, err
}
