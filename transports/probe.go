package transports

import (
	"context"
	"errors"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// An older server may exit, close its stdout, or close its WebSocket, on a
// method it does not know, and the first thing the 2026-07-28 handshake
// sends is the server/discover probe. Such a server connected before
// negotiation existed, so Open starts (or dials) it once more with the
// initialize handshake alone (legacyRetry): the person sees no error, and
// the version the server answers is the one the caller remembers, so the
// next start goes straight to initialize. Only a probe the connection did
// not survive counts; a server that also ends on initialize fails with its
// own error. Over HTTP there is nothing to restart: a refused or dropped
// probe is one failed request, and mcp-go sends initialize after it on the
// same connection.

// noteProbe notes a server/discover probe that the peer did not survive:
// the process exited or closed its stdout, or the server closed its
// WebSocket, while the probe waited for its answer.
func (p *rpcPeer) noteProbe(ctx context.Context, req transport.JSONRPCRequest, err error) {
	if err != nil && req.Method == string(mcp.MethodServerDiscover) && ctx.Err() == nil && endedOnItsOwn(p.err()) {
		p.probeEnded.Store(true)
	}
}

// endedOnItsOwn reports whether a peer failed because the process exited
// or closed its stdout, or the server closed its WebSocket, not because
// mcpdeck closed it or read garbage.
func endedOnItsOwn(err error) bool {
	var exit *ExitError
	return errors.As(err, &exit) || errors.Is(err, ErrConnectionLost)
}

// legacyRetry reports whether a failed Open of c with opts should start
// the server once more with the initialize handshake: c is a stdio or
// WebSocket connection that ended on the discovery probe, and the version
// was offered by mcpdeck, not pinned by the definition. It returns the
// options for that start.
func legacyRetry(c *Conn, opts Options) (Options, bool) {
	if c.probeEnded == nil || !c.probeEnded() || opts.pinned || !mcp.IsModernProtocol(opts.ProtocolVersion) {
		return opts, false
	}
	opts.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	return opts, true
}
