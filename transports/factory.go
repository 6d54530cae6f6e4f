package transports

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
)

// Factory opens connections. The engine takes one so tests can fake it.
type Factory interface {
	Open(ctx context.Context, name string, cfg model.ServerConfig, opts Options) (*Conn, error)
}

// NewFactory returns the real factory.
func NewFactory() Factory { return factory{} }

type factory struct{}

// cleanupTimeout bounds closing a connection whose Open failed.
const cleanupTimeout = time.Second

// Open starts the transport for cfg, builds a fresh mcp-go client and runs
// initialize under ctx. On failure everything started is stopped and the
// error is an *Error (Classify, Humanize and errors.Is work on it); a stdio
// child that died during the handshake is reported as its *ExitError. A
// stdio child that died on the discovery probe is started once more with
// the initialize handshake (probe.go).
func (factory) Open(ctx context.Context, name string, cfg model.ServerConfig, opts Options) (*Conn, error) {
	if err := checkEditorURL(cfg); err != nil {
		return nil, &Error{Class: ClassTerminal, Err: fmt.Errorf("server %q: %w", name, err)}
	}
	opts = opts.withDefaults(cfg.ProtocolVersion)
	c, err := openOnce(ctx, name, cfg, opts)
	if err == nil {
		return c, nil
	}
	if legacy, ok := legacyRetry(c, opts); ok {
		c, err = openOnce(ctx, name, cfg, legacy)
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// openOnce starts the transport and runs the handshake once. On failure
// the returned connection is closed, kept only so that Open can ask how
// it ended (legacyRetry).
func openOnce(ctx context.Context, name string, cfg model.ServerConfig, opts Options) (*Conn, error) {
	kind := cfg.EffectiveType()
	c := newConn(name, kind)
	c.rec = newFrameRecorder(opts.OnFrame, opts.Mask)
	// A way to open without its case here (the exhaustive lint names it)
	// fails as unsupported, as a transport mcpdeck does not know does.
	err := fmt.Errorf("server %q: transport type %q: %w", name, kind, errors.ErrUnsupported)
	switch kind.Info().Opens {
	case model.OpenProcess:
		err = openStdio(c, name, cfg, opts)
	case model.OpenHTTP:
		err = openHTTP(ctx, c, cfg, opts)
	case model.OpenSSE:
		err = openSSE(ctx, c, cfg, opts)
	case model.OpenWebSocket:
		err = openWS(ctx, c, cfg, opts)
	case model.OpenInProcess:
		err = openSDK(ctx, c, cfg, opts)
	case model.OpenNone:
	}
	if err == nil {
		err = c.initialize(ctx, opts)
	}
	if err != nil {
		return c, closeFailed(ctx, c, err)
	}
	c.startListening(c.Init())
	return c, nil
}

// closeFailed stops what a failed open started and returns its error as
// an *Error, with the real reason behind "transport closed" (a stdio
// child's exit, a protocol error) and the stderr tail.
func closeFailed(ctx context.Context, c *Conn, err error) error {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	_ = c.Close(cctx)
	lostErr := c.Err()
	if c.reason != nil {
		lostErr = c.reason()
	}
	var exit *ExitError
	var perr *ProtocolError
	if errors.As(lostErr, &exit) || errors.As(lostErr, &perr) || errors.Is(lostErr, ErrMessageTooLarge) {
		err = lostErr // the real reason behind "transport closed"
	}
	e := &Error{Class: Classify(err), Err: err}
	if c.stderr != nil {
		e.StderrTail = c.stderr.stderrTail(exitTailLines)
	}
	return e
}

// MaxInputRounds bounds the requests one call sends while its server keeps
// answering "input required": the first request and its retries with the
// gathered input.
const MaxInputRounds = 10

// clientOptions builds the mcp-go client options common to every transport:
// each answers the server's requests, so each declares the capabilities
// whose handler opts has.
func clientOptions(opts Options) []client.ClientOption {
	o := []client.ClientOption{
		client.WithDiscoverTimeout(opts.DiscoverTimeout),
		client.WithMaxInputRoundTrips(MaxInputRounds),
	}
	var caps mcp.ClientCapabilities
	if opts.Elicit != nil {
		caps.Elicitation = &mcp.ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}}
		o = append(o, client.WithElicitationHandler(elicitFunc(opts.Elicit)))
	}
	if opts.Sample != nil {
		caps.Sampling = &mcp.SamplingCapability{}
		o = append(o, client.WithSamplingHandler(sampleFunc(opts.Sample)))
	}
	if opts.Roots != nil {
		o = append(o, client.WithRootsHandler(rootsFunc(opts.Roots)))
	}
	return append(o, client.WithClientCapabilities(caps))
}

type elicitFunc func(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error)

func (f elicitFunc) Elicit(ctx context.Context, r mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return f(ctx, r)
}

type sampleFunc func(context.Context, mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)

func (f sampleFunc) CreateMessage(ctx context.Context, r mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return f(ctx, r)
}

type rootsFunc func(context.Context) ([]mcp.Root, error)

func (f rootsFunc) ListRoots(ctx context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	roots, err := f(ctx)
	if err != nil {
		return nil, err
	}
	if roots == nil {
		roots = []mcp.Root{}
	}
	return &mcp.ListRootsResult{Roots: roots}, nil
}
