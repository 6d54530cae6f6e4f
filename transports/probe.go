package transports

import (
	"context"
	"errors"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// An older stdio server may exit, or close its stdout, on a method it does
// not know, and the first thing the 2026-07-28 handshake sends is the
// server/discover probe. Such a server connected before negotiation
// existed, so Open starts it once more with the initialize handshake alone
// (legacyRetry): the person sees no error, and the version the server
// answers is the one the caller remembers, so the next start goes straight
// to initialize. Only a probe the process did not survive counts; a server
// that also dies on initialize fails with its own exit. Over HTTP there is
// nothing to restart: a refused or dropped probe is one failed request,
// and mcp-go sends initialize after it on the same connection.

// SendRequest is the peer's, noting a server/discover probe that the
// process did not survive: it exited, or closed its stdout, while the
// probe waited for its answer.
func (t *stdioTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	resp, err := t.rpcPeer.SendRequest(ctx, req)
	if err != nil && req.Method == string(mcp.MethodServerDiscover) && ctx.Err() == nil && endedOnItsOwn(t.err()) {
		t.probeEnded.Store(true)
	}
	return resp, err
}

// endedOnItsOwn reports whether a peer failed because the process exited
// or closed its stdout, not because mcpdeck closed it or read garbage.
func endedOnItsOwn(err error) bool {
	var exit *ExitError
	return errors.As(err, &exit) || errors.Is(err, ErrConnectionLost)
}

// legacyRetry reports whether a failed Open of c with opts should start
// the server once more with the initialize handshake: c is a stdio
// connection whose process ended on the discovery probe, and the version
// was offered by mcpdeck, not pinned by the definition. It returns the
// options for that start.
func legacyRetry(c *Conn, opts Options) (Options, bool) {
	if c.probeEnded == nil || !c.probeEnded() || opts.pinned || !mcp.IsModernProtocol(opts.ProtocolVersion) {
		return opts, false
	}
	opts.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	return opts, true
}
