package transports

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Every POST of an HTTP connection names its message in the Mcp-Method
// header (and the tool, prompt or resource in Mcp-Name), so that gateways
// can route on them. mcp-go sets them on the requests of a 2026-07-28
// session only: not on the handshake that comes before the version is
// known (initialize), nor on any notification (notifications/initialized).
// sessionCodeTransport fills them in for requests through the request's own
// headers, and for notifications through the context of the one POST that
// carries them (noteMethod), which the round tripper reads (methodHeaders).

// methodKey is the context key of a notification's method.
type methodKey struct{}

// noteMethod returns ctx naming the message method its POST carries.
func noteMethod(ctx context.Context, method string) context.Context {
	return context.WithValue(ctx, methodKey{}, method)
}

// methodHeaders sets Mcp-Method from the request's context on a POST that
// does not name its method yet.
func methodHeaders(req *http.Request) {
	if req.Method != http.MethodPost || req.Header.Get(mcp.HeaderMethod) != "" {
		return
	}
	if m, ok := req.Context().Value(methodKey{}).(string); ok && m != "" {
		req.Header.Set(mcp.HeaderMethod, m)
	}
}

// withStandardHeaders returns req with Mcp-Method, and Mcp-Name where the
// method has a name, unless mcp-go set them already. The header map is
// copied: mcp-go may share it.
func withStandardHeaders(req transport.JSONRPCRequest) transport.JSONRPCRequest {
	if req.Header.Get(mcp.HeaderMethod) != "" {
		return req
	}
	if req.Header == nil {
		req.Header = http.Header{}
	} else {
		req.Header = req.Header.Clone()
	}
	req.Header.Set(mcp.HeaderMethod, req.Method)
	if params, err := json.Marshal(req.Params); err == nil {
		if name, ok := mcp.ExtractHeaderName(mcp.MCPMethod(req.Method), params); ok {
			if v, ok := mcp.EncodeHeaderValue(name); ok {
				req.Header.Set(mcp.HeaderName, v)
			}
		}
	}
	return req
}

// versionTracker remembers the protocol version mcp-go last gave the
// transport, which its Mcp-Protocol-Version header and _meta carry.
type versionTracker struct{ v atomic.Pointer[string] }

func (t *versionTracker) set(v string) { t.v.Store(&v) }

func (t *versionTracker) get() string {
	if p := t.v.Load(); p != nil {
		return *p
	}
	return ""
}

// refusedOwnVersion reports whether resp refuses a server/discover probe as
// an unsupported protocol version while naming the very version the probe
// offered among those the server supports. mcp-go renegotiates only to a
// different version and otherwise gives up on the new protocol; the client
// asks once more at that version instead.
func refusedOwnVersion(req transport.JSONRPCRequest, resp *transport.JSONRPCResponse, offered string) bool {
	if req.Method != string(mcp.MethodServerDiscover) || resp == nil || resp.Error == nil ||
		resp.Error.Code != mcp.UNSUPPORTED_PROTOCOL_VERSION || offered == "" {
		return false
	}
	var unsup mcp.UnsupportedProtocolVersionError
	return errors.As(resp.Error.AsError(), &unsup) && slices.Contains(unsup.Supported, offered)
}
