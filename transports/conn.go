package transports

import (
	"context"
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/lock"
)

// Conn is an initialized MCP session on one transport. It is built by
// Factory.Open and must be closed with Close (also after Done fired).
type Conn struct {
	name    string
	kind    model.Transport
	client  *client.Client
	initReq mcp.InitializeRequest

	mu   sync.Mutex
	init *mcp.InitializeResult
	err  error

	done     chan struct{}
	doneOnce sync.Once

	stderr     stderrSink                  // stdio only
	pid        int                         // stdio only
	logPath    string                      // stdio only
	shutdown   func(context.Context) error // transport-specific close
	reason     func() error                // the transport's own failure (stdio, ws), if any
	probeEnded func() bool                 // stdio and WebSocket: the peer ended on the discovery probe (probe.go)
	rt         *roundTripper               // http/sse only
	rec        *frameRecorder              // records frames for Options.OnFrame; nil when none
	refusals   *refusalRecorder            // streamable http only
	listenStop context.CancelFunc          // ends the subscriptions/listen loop (listen.go), if one runs
	listenDone chan struct{}               // closed when that loop returned
	closeMu    sync.Mutex
	closed     bool
	closeErr   error
	// sessionIsStream: the session is the transport's event stream (legacy
	// SSE), so Reinit cannot start a new one on it.
	sessionIsStream bool
}

func newConn(name string, kind model.Transport) *Conn {
	return &Conn{name: name, kind: kind, done: make(chan struct{})}
}

// lost records why the connection ended (first reason wins) and closes Done.
func (c *Conn) lost(err error) {
	if err == nil {
		err = ErrConnectionLost
	}
	c.doneOnce.Do(func() {
		lock.With(&c.mu, func() { c.err = err })
		close(c.done)
	})
}

// Name returns the server name the connection was opened for.
func (c *Conn) Name() string { return c.name }

// Transport returns the transport kind.
func (c *Conn) Transport() model.Transport { return c.kind }

// Client returns the mcp-go client, for requests.
func (c *Conn) Client() *client.Client { return c.client }

// Init returns the server's answer to initialize (refreshed by Reinit).
func (c *Conn) Init() (init *mcp.InitializeResult) {
	lock.With(&c.mu, func() { init = c.init })
	return init
}

// Done is closed when the connection is lost (child exit, websocket close,
// SSE stream end, refused HTTP request) or closed.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err says why Done closed: *ExitError for a stdio child that ended,
// *ProtocolError for malformed output, ErrClosed after Close, a network
// error otherwise. nil while the connection is up.
func (c *Conn) Err() (err error) {
	lock.With(&c.mu, func() { err = c.err })
	return err
}

// PID returns the stdio server's process id (also its process group id),
// or 0 for other transports.
func (c *Conn) PID() int { return c.pid }

// LogPath returns the stdio server's stderr log file, or "" (other
// transports, or no Options.LogDir).
func (c *Conn) LogPath() string { return c.logPath }

// StderrTail returns the last n captured stderr lines of a stdio server
// (all kept lines when n <= 0); nil for other transports.
func (c *Conn) StderrTail(n int) []string {
	if c.stderr == nil {
		return nil
	}
	return c.stderr.stderrTail(n)
}

// StderrChanged receives a value after new stderr lines arrived (one value
// stands for any number of lines since the last receive), so that a reader
// of StderrTail need not poll. nil (never ready) for transports without
// stderr.
func (c *Conn) StderrChanged() <-chan struct{} {
	if c.stderr == nil {
		return nil
	}
	return c.stderr.stderrChanged()
}

// Close ends the session and releases everything: stdio sends SIGINT →
// 100 ms → SIGTERM → 400 ms → SIGKILL to the process group; HTTP ends the
// session with a DELETE bounded by ctx. Safe to call more than once.
func (c *Conn) Close(ctx context.Context) (err error) {
	lock.With(&c.closeMu, func() {
		if c.closed {
			err = c.closeErr
			return
		}
		c.closed = true
		if c.rt != nil {
			c.rt.closing.Store(&ctx)
		}
		if c.listenStop != nil {
			c.listenStop() // before shutdown: the stream ending then is no loss
		}
		if c.shutdown != nil {
			c.closeErr = c.shutdown(ctx)
		}
		c.lost(ErrClosed)
		if c.listenDone != nil {
			<-c.listenDone // shutdown failed the request if cancelling did not
		}
		err = c.closeErr
	})
	return err
}

// Reinit re-runs initialize on the same transport, after ClassSessionExpired
// on streamable HTTP: mcp-go then starts a new session (new Mcp-Session-Id)
// and its GET stream follows it. Legacy SSE cannot do this (the session is
// its event stream): there it returns ErrSessionExpired and the caller must
// reconnect.
func (c *Conn) Reinit(ctx context.Context) error {
	if c.sessionIsStream {
		return &Error{Class: ClassSessionExpired, Err: fmt.Errorf("sse sessions cannot be re-initialized: %w", ErrSessionExpired)}
	}
	select {
	case <-c.done:
		return Wrap(c.Err())
	default:
	}
	res, err := c.client.Initialize(ctx, c.initReq)
	if err != nil {
		return Wrap(err)
	}
	lock.With(&c.mu, func() { c.init = res })
	return nil
}

// Ping asks the server whether it is still there (MCP ping); the engine's
// health check calls it on an open session. Protocols before 2026-07-28
// have ping; on a 2026-07-28 session, which has none, mcp-go returns at
// once without sending anything and liveness is the transport's (a closed
// stream or pipe ends the connection).
func (c *Conn) Ping(ctx context.Context) error {
	select {
	case <-c.done:
		return Wrap(c.Err())
	default:
	}
	return Wrap(c.client.Ping(ctx)) //nolint:staticcheck // deprecated for 2026-07-28 only, where it is a no-op (see above)
}
