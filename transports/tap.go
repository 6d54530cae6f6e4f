package transports

import (
	"context"
	"errors"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// tap sits between the mcp-go client and a transport (ours for stdio and
// WebSocket, mcp-go's for HTTP, SSE and in-process) and records every
// JSON-RPC message that passes as a Frame: requests and their responses,
// notifications both ways, and the server's requests with mcpdeck's
// answers. Every message of a session passes these four methods, whatever
// the transport, so this one place sees all of them; it is also where a
// result goes to TakeResult (rawresult.go), after it is recorded as the
// server sent it.
type tap struct {
	transport.Interface
	rec *frameRecorder
}

// tapped wraps inner, keeping the optional interfaces the client looks for
// (an HTTP connection's protocol version and legacy-protocol answer). A nil
// rec records nothing.
func tapped(inner transport.Interface, rec *frameRecorder) transport.Interface {
	t := &tap{Interface: inner, rec: rec}
	if h, ok := inner.(transport.HTTPConnection); ok {
		return &httpTap{tap: t, http: h}
	}
	return t
}

// SendRequest declares the capabilities the request's context carries
// (requestcaps.go) and adds its first inputResponses (firstinput.go),
// records the request, then its response with the time it took, then
// hands the result to TakeResult.
func (t *tap) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	start := time.Now()
	req.Params = declareCapabilities(ctx, req.Params)
	req.Params = addFirstInput(ctx, req.Method, req.Params)
	t.rec.message(start, Sent, KindRequest, req.Method, idText(req.ID), req)
	resp, err := t.Interface.SendRequest(ctx, req)
	if err == nil && resp != nil {
		t.rec.response(Received, req.Method, resp, time.Since(start))
		noteResult(ctx, req.Method, resp)
	}
	return resp, err
}

// SendNotification records the notification and sends it.
func (t *tap) SendNotification(ctx context.Context, n mcp.JSONRPCNotification) error {
	t.rec.message(time.Now(), Sent, KindNotification, n.Method, "", n)
	return t.Interface.SendNotification(ctx, n)
}

// SetNotificationHandler records each notification before h gets it.
func (t *tap) SetNotificationHandler(h func(mcp.JSONRPCNotification)) {
	if t.rec == nil {
		t.Interface.SetNotificationHandler(h)
		return
	}
	t.Interface.SetNotificationHandler(func(n mcp.JSONRPCNotification) {
		t.rec.message(time.Now(), Received, KindNotification, n.Method, "", n)
		h(n)
	})
}

// SetRequestHandler records each request of the server and mcpdeck's
// answer (an error the handler returns is recorded as the error answer
// the transports send for it). An error that knows its JSON-RPC form is
// sent as that (answerErrors).
func (t *tap) SetRequestHandler(h transport.RequestHandler) {
	inner, ok := t.Interface.(transport.BidirectionalInterface)
	if !ok {
		return
	}
	h = answerErrors(h)
	if t.rec == nil {
		inner.SetRequestHandler(h)
		return
	}
	inner.SetRequestHandler(func(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
		start := time.Now()
		t.rec.message(start, Received, KindRequest, req.Method, idText(req.ID), req)
		resp, err := h(ctx, req)
		answer := resp
		if err != nil {
			answer = transport.NewJSONRPCErrorResponse(req.ID, mcp.INTERNAL_ERROR, err.Error(), nil)
		}
		if answer != nil {
			t.rec.response(Sent, req.Method, answer, time.Since(start))
		}
		return resp, err
	})
}

// rpcErrorer is an error that knows the JSON-RPC error it is sent as
// (mcp-go's convention, as mcp.URLElicitationRequiredError does).
type rpcErrorer interface{ JSONRPCError() mcp.JSONRPCError }

// answerErrors answers a server's request whose handler failed with an
// error that knows its JSON-RPC form with that error, code and all; every
// transport would send any other error as -32603 (internal error) with the
// error's text.
func answerErrors(h transport.RequestHandler) transport.RequestHandler {
	return func(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
		resp, err := h(ctx, req)
		var re rpcErrorer
		if err != nil && errors.As(err, &re) {
			d := re.JSONRPCError().Error
			return transport.NewJSONRPCErrorResponse(req.ID, d.Code, d.Message, d.Data), nil
		}
		return resp, err
	}
}

// httpTap is a tap over an HTTP connection (streamable HTTP or legacy SSE).
type httpTap struct {
	*tap
	http transport.HTTPConnection
}

// SetProtocolVersion forwards to the HTTP connection.
func (t *httpTap) SetProtocolVersion(v string) { t.http.SetProtocolVersion(v) }

// RequiresLegacyProtocol forwards the connection's answer (false when it
// has none, as the client assumes).
func (t *httpTap) RequiresLegacyProtocol() bool {
	l, ok := t.http.(interface{ RequiresLegacyProtocol() bool })
	return ok && l.RequiresLegacyProtocol()
}

var (
	_ transport.BidirectionalInterface = (*tap)(nil)
	_ transport.HTTPConnection         = (*httpTap)(nil)
)
