package transports

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model/lock"
)

// Protocol negotiation. Unless a server's definition pins a version, Open
// offers the newest protocol (2026-07-28: mcp-go probes with server/discover)
// and mcp-go falls back to the initialize handshake at 2025-11-25, which the
// server answers with its own version (2025-11-25, 2025-06-18, 2025-03-26).
// Options.ProtocolVersion carries the version the server negotiated last
// time: an older one skips the discovery probe, and if the server refuses
// the handshake because it has moved to a newer protocol, the probe follows.

// VersionError says the server and mcpdeck found no protocol version both
// speak (or not the one the server's definition pins).
type VersionError struct {
	Offered   []string // what mcpdeck offered, in order
	Supported []string // what the server said it supports, if it said
	Answered  string   // the version the server answered with, if it answered one
	Pinned    bool     // Offered is the one version protocolVersion pins
	Err       error    // the server's refusal, if any
}

// Error says what each side speaks.
func (e *VersionError) Error() string {
	offered := "mcpdeck offered " + joinVersions(e.Offered)
	if e.Pinned {
		offered += " (pinned by protocolVersion in the server's definition)"
	}
	switch {
	case e.Pinned && e.Answered != "":
		return "the server answered with protocol " + e.Answered + ", but protocolVersion in its definition pins " + joinVersions(e.Offered)
	case e.Answered != "":
		return "the server answered with protocol " + e.Answered + ", which mcpdeck does not speak; " + offered
	case len(e.Supported) == 1:
		return "the server supports protocol " + e.Supported[0] + " only; " + offered
	case len(e.Supported) > 1:
		return "the server supports protocols " + joinVersions(e.Supported) + " only; " + offered
	}
	return "the server refused the protocol versions mcpdeck offered; " + offered
}

// Unwrap returns the server's refusal.
func (e *VersionError) Unwrap() error { return e.Err }

func joinVersions(v []string) string {
	switch len(v) {
	case 0:
		return "nothing"
	case 1:
		return v[0]
	}
	return strings.Join(v[:len(v)-1], ", ") + " and " + v[len(v)-1]
}

// offeredBy lists what one handshake starting at v offers: from a modern
// version mcp-go falls back to initialize at the newest older version.
func offeredBy(v string) []string {
	if mcp.IsModernProtocol(v) && v != mcp.LATEST_LEGACY_PROTOCOL_VERSION {
		return []string{v, mcp.LATEST_LEGACY_PROTOCOL_VERSION}
	}
	return []string{v}
}

// initialize negotiates the protocol version and records the result.
func (c *Conn) initialize(ctx context.Context, opts Options) error {
	if opts.OnNotification != nil {
		c.client.OnNotification(opts.OnNotification)
	}
	first := opts.ProtocolVersion
	if !opts.pinned && !mcp.IsModernProtocol(first) {
		// A remembered older version: the handshake offers the newest one it
		// can carry and the server answers with its own, so an upgrade from
		// 2025-06-18 to 2025-11-25 is picked up.
		first = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	}
	offered := offeredBy(first)
	res, err := c.handshake(ctx, opts, first)
	if err != nil && !opts.pinned && wantsNewer(err) {
		// The server refused the handshake for a newer protocol: it was
		// upgraded since we remembered it, or it answered the discovery
		// probe too late.
		offered = append(offered, mcp.LATEST_PROTOCOL_VERSION)
		res, err = c.handshake(ctx, opts, mcp.LATEST_PROTOCOL_VERSION)
	}
	if err != nil {
		return versionError(err, offered, opts.pinned)
	}
	if opts.pinned && res.ProtocolVersion != opts.ProtocolVersion {
		return &VersionError{Offered: []string{opts.ProtocolVersion}, Answered: res.ProtocolVersion, Pinned: true}
	}
	// Reinit after an expired session goes straight to what was agreed.
	c.initReq.Params.ProtocolVersion = res.ProtocolVersion
	lock.With(&c.mu, func() { c.init = res })
	return nil
}

// handshake runs one Initialize starting at version v. mcp-go probes with
// server/discover for a modern v and uses the initialize handshake
// otherwise. A refused HTTP handshake is reported with the server's status
// and message (see refusal.go).
func (c *Conn) handshake(ctx context.Context, opts Options, v string) (*mcp.InitializeResult, error) {
	c.initReq = mcp.InitializeRequest{}
	c.initReq.Params.ProtocolVersion = v
	c.initReq.Params.ClientInfo = mcp.Implementation{Name: opts.ClientName, Version: opts.ClientVersion}
	c.initReq.Params.Capabilities = c.client.GetClientCapabilities()
	res, err := c.client.Initialize(ctx, c.initReq)
	if err != nil && c.refusals != nil {
		err = c.refusals.explain(ctx, err)
	}
	return res, err
}

// wantsNewer reports whether a refused handshake means the server speaks
// only a newer protocol: it named a modern version it supports, or it does
// not know initialize at all.
func wantsNewer(err error) bool {
	var unsup mcp.UnsupportedProtocolVersionError
	if errors.As(err, &unsup) {
		return slices.ContainsFunc(unsup.Supported, mcp.IsModernProtocol)
	}
	return errors.Is(err, mcp.ErrMethodNotFound)
}

// versionError turns a refusal about protocol versions into a *VersionError
// and leaves other errors alone.
func versionError(err error, offered []string, pinned bool) error {
	var unsup mcp.UnsupportedProtocolVersionError
	if !errors.As(err, &unsup) {
		return err
	}
	ve := &VersionError{Offered: offered, Pinned: pinned, Err: err}
	switch {
	case len(unsup.Supported) > 0:
		ve.Supported = unsup.Supported
	case unsup.Version != "" && !slices.Contains(offered, unsup.Version):
		ve.Answered = unsup.Version // mcp-go: the server answered a version it does not know
	}
	return ve
}
