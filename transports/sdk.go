package transports

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
)

// openSDK connects in-process to the built-in server cfg.Name. A fresh server
// instance is built per Open. Elicitation, sampling and roots reach our
// handlers through mcp-go's in-process session; they pass no transport, so
// they are recorded here (inProcessAnswer) rather than by the tap.
func openSDK(ctx context.Context, c *Conn, cfg model.ServerConfig, opts Options) error {
	build := opts.Builtins[cfg.Name]
	if build == nil {
		return fmt.Errorf("%w: %q", ErrNoBuiltin, cfg.Name)
	}
	srv := build()
	if srv == nil {
		return fmt.Errorf("%w: %q built nothing", ErrNoBuiltin, cfg.Name)
	}
	var topts []transport.InProcessOption
	if opts.Elicit != nil {
		topts = append(topts, transport.WithElicitationHandler(elicitFunc(func(ctx context.Context, r mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
			return inProcessAnswer(c.rec, string(mcp.MethodElicitationCreate), r, func() (*mcp.ElicitationResult, error) { return opts.Elicit(ctx, r) })
		})))
	}
	if opts.Sample != nil {
		topts = append(topts, transport.WithSamplingHandler(sampleFunc(func(ctx context.Context, r mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return inProcessAnswer(c.rec, string(mcp.MethodSamplingCreateMessage), r, func() (*mcp.CreateMessageResult, error) { return opts.Sample(ctx, r) })
		})))
	}
	if opts.Roots != nil {
		roots := rootsFunc(opts.Roots)
		topts = append(topts, transport.WithRootsHandler(rootsFunc(func(ctx context.Context) ([]mcp.Root, error) {
			res, err := inProcessAnswer(c.rec, string(mcp.MethodListRoots), mcp.ListRootsRequest{}, func() (*mcp.ListRootsResult, error) {
				return roots.ListRoots(ctx, mcp.ListRootsRequest{})
			})
			if err != nil {
				return nil, err
			}
			return res.Roots, nil
		})))
	}
	cl := client.NewClient(tapped(inProcess{transport.NewInProcessTransportWithOptions(srv, topts...)}, c.rec), clientOptions(opts)...)
	c.client = cl
	c.shutdown = func(context.Context) error { return cl.Close() }
	return cl.Start(context.WithoutCancel(ctx))
}

// inProcess is mcp-go's in-process transport, which calls the server
// and returns its answer whenever it comes, even after the request's
// context ended. Here an answer that comes once the caller's deadline has
// passed is no answer, as over every other transport: a built-in that
// holds its tools/list past the connect timeout has not connected, and
// whether it had depended on which of the two the scheduler ran first.
type inProcess struct{ *transport.InProcessTransport }

func (t inProcess) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	resp, err := t.InProcessTransport.SendRequest(ctx, req)
	if err == nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return resp, err
}

// inProcessAnswer runs answer for an in-process server's request and
// records both as frames (no id: nothing numbers them in process). A nil
// result is an error, as mcp-go's own in-process adapters make it.
func inProcessAnswer[Req any, Res any](rec *frameRecorder, method string, req Req, answer func() (*Res, error)) (*Res, error) {
	start := time.Now()
	if rec != nil {
		rec.message(start, Received, KindRequest, method, "", req)
	}
	res, err := answer()
	if err == nil && res == nil {
		err = fmt.Errorf("%s: the handler gave no result", method)
	}
	if rec != nil {
		resp := transport.NewJSONRPCErrorResponse(mcp.RequestId{}, mcp.INTERNAL_ERROR, "", nil)
		if err != nil {
			resp.Error.Message = err.Error()
		} else if b, merr := json.Marshal(res); merr == nil {
			resp = transport.NewJSONRPCResultResponse(mcp.RequestId{}, b)
		}
		rec.response(Sent, method, resp, time.Since(start))
	}
	return res, err
}
