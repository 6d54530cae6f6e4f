package oauth

import (
	"context"
	"net/http"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
)

// statelessVersion is the protocol version whose requests need no
// handshake; the probe falls back to it when the handshake is refused.
const statelessVersion = "2026-07-28"

// probe sends unauthenticated requests to learn the server's Bearer
// challenge (resource_metadata and scope). Some servers let the handshake
// through and guard only the requests after it; for those the probe goes
// on to tools/list in the session the handshake opened, whose challenge
// names the scope the server wants first, and then ends that session. A
// server that refuses the handshake (it speaks only the stateless
// protocol) is asked for tools/list the stateless way instead.
func (dc *discoverer) probe(ctx context.Context, srv model.Server) (challenge, bool) {
	if srv.Config.EffectiveType().Info().Opens == model.OpenSSE { // a GET opens its event stream
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.Config.URL, nil)
		if err != nil {
			return challenge{}, false
		}
		req.Header.Set("Accept", "text/event-stream")
		c, resp, ok := dc.probeSend(req)
		c.Open = !ok && answeredOK(resp)
		return c, ok
	}
	c, resp, ok := dc.probeSend(dc.probeRequest(ctx, srv, "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+protocolVersion+
		`","capabilities":{},"clientInfo":{"name":"mcpdeck","version":"probe"}}}`))
	if !ok && resp != nil && resp.StatusCode >= 400 && resp.StatusCode < 500 {
		// A server of the stateless protocol refuses the handshake: ask it
		// for its tools the stateless way, which is what it guards.
		c, resp, ok = dc.probeSend(dc.statelessProbe(ctx, srv))
		c.Open = !ok && answeredOK(resp)
		return c, ok
	}
	if ok || resp == nil || resp.StatusCode != http.StatusOK {
		return c, ok
	}
	sid := resp.Header.Get("Mcp-Session-Id")
	_, _, _ = dc.probeSend(dc.probeRequest(ctx, srv, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	c, resp, ok = dc.probeSend(dc.probeRequest(ctx, srv, sid, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	c.Open = !ok && answeredOK(resp)
	if sid != "" {
		if req, err := http.NewRequestWithContext(ctx, http.MethodDelete, srv.Config.URL, nil); err == nil {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("MCP-Protocol-Version", protocolVersion)
			_, _, _ = dc.probeSend(req)
		}
	}
	return c, ok
}

// probeRequest is a JSON-RPC POST of the probe, in session sid if not "".
func (dc *discoverer) probeRequest(ctx context.Context, srv model.Server, sid, body string) *http.Request {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.Config.URL, strings.NewReader(body))
	if err != nil {
		return nil
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", protocolVersion)
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
	}
	return req
}

// statelessProbe is a tools/list of protocol 2026-07-28, which needs no
// handshake: the version travels in the header and in _meta.
func (dc *discoverer) statelessProbe(ctx context.Context, srv model.Server) *http.Request {
	req := dc.probeRequest(ctx, srv, "", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"`+
		mcp.MetaKeyProtocolVersion+`":"`+statelessVersion+`","`+mcp.MetaKeyClientInfo+`":{"name":"mcpdeck","version":"probe"}}}}`)
	if req != nil {
		req.Header.Set("MCP-Protocol-Version", statelessVersion)
		req.Header.Set("Mcp-Method", "tools/list")
	}
	return req
}

// probeSend sends one probe request and returns the challenge of a 401 or
// 403 answer. Only the headers matter: the body, perhaps an open event
// stream, is closed unread. It carries no credentials, so it follows
// redirects as any client would.
func (dc *discoverer) probeSend(req *http.Request) (challenge, *http.Response, bool) {
	if req == nil {
		return challenge{}, nil, false
	}
	c := *dc.wire.http
	c.CheckRedirect = nil
	resp, err := c.Do(req)
	if err != nil {
		return challenge{}, nil, false
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		return challenge{}, resp, false
	}
	ch, ok := parseWWWAuthenticate(resp.Header)
	return ch, resp, ok
}

// answeredOK reports whether resp is a 2xx: the request went through
// without credentials.
func answeredOK(resp *http.Response) bool {
	return resp != nil && resp.StatusCode >= 200 && resp.StatusCode < 300
}
