package egress

import (
	"context"
	"net/netip"
	"time"
)

// Options configure a proxy: the rule, where its unix socket lives, who
// hears of refusals, and its bounds.
type Options struct {
	Rule Rule
	// SocketDir, when set, holds the proxy's unix socket (mode 0600). It
	// must be a directory only its owner can write (ErrSocketDir).
	SocketDir string
	// OnRefuse hears every refusal, from the connection's goroutine: it
	// must return quickly. Nil drops them.
	OnRefuse func(Refusal)
	// Resolve turns a listed name into addresses; nil uses the system
	// resolver. Tests give names fixed addresses with it.
	Resolve func(ctx context.Context, name string) ([]netip.Addr, error)
	// Limits bound the proxy; zero fields take DefaultLimits' values.
	Limits Limits
	// Credential is what clients must present; the zero value makes Start
	// draw a random one (Proxy.Credential). Tests fix it.
	Credential Credential
}

// Limits bound what a sandboxed program can make the proxy hold.
type Limits struct {
	// MaxHeaderBytes bounds a request's line and headers (HTTP) or the
	// handshake (SOCKS5 needs far less).
	MaxHeaderBytes int
	// MaxConns bounds the connections open at once; each carries at most
	// one tunnel, so it bounds tunnels too. A connection over the bound is
	// closed as soon as it is accepted.
	MaxConns int
	// HandshakeTimeout bounds the time from accepting a connection to its
	// tunnel or its first request being ready, dialing included.
	HandshakeTimeout time.Duration
	// IdleTimeout closes a tunnel, or a kept-alive HTTP connection, when
	// no byte has moved either way for that long.
	IdleTimeout time.Duration
}

// DefaultLimits are the bounds of a proxy whose Options leave them zero.
func DefaultLimits() Limits {
	return Limits{
		MaxHeaderBytes:   32 << 10,
		MaxConns:         128,
		HandshakeTimeout: 30 * time.Second,
		IdleTimeout:      10 * time.Minute,
	}
}

// withDefaults fills the zero fields of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxHeaderBytes <= 0 {
		l.MaxHeaderBytes = d.MaxHeaderBytes
	}
	if l.MaxConns <= 0 {
		l.MaxConns = d.MaxConns
	}
	if l.HandshakeTimeout <= 0 {
		l.HandshakeTimeout = d.HandshakeTimeout
	}
	if l.IdleTimeout <= 0 {
		l.IdleTimeout = d.IdleTimeout
	}
	return l
}
