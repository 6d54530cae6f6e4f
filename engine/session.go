package engine

import (
	"context"
	"errors"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/transports"
)

// session is what the engine needs from an open connection;
// *transports.Conn provides it. Tests substitute in-process fakes.
type session interface {
	Client() *client.Client
	Init() *mcp.InitializeResult
	Done() <-chan struct{}
	Err() error
	StderrTail(n int) []string
	StderrChanged() <-chan struct{} // nil when there is no stderr
	Close(ctx context.Context) error
	Reinit(ctx context.Context) error
	Ping(ctx context.Context) error
	// Subscribe starts (on) or stops notifications/resources/updated
	// about uri.
	Subscribe(ctx context.Context, uri string, on bool) error
}

// connOptions are what the engine hands the transport for one server:
// transports.Options itself, so that a new option (a handler of a new
// server request) is declared once.
type connOptions = transports.Options

// opener opens and initializes one connection.
type opener func(ctx context.Context, name string, cfg model.ServerConfig, o connOptions) (session, error)

// errorOps classifies and explains transport errors; from transports in
// production.
type errorOps struct {
	classify func(error) (lifecycle.ErrClass, string)
	humanize func(error) string
	exitCode func(error) (int, bool)
	// broke reports an error saying that a request's connection ended
	// under it (transports.Broke).
	broke func(error) bool
}

// factoryOpener adapts a transports.Factory to the engine's opener.
func factoryOpener(f transports.Factory) opener {
	return func(ctx context.Context, name string, cfg model.ServerConfig, o connOptions) (session, error) {
		c, err := f.Open(ctx, name, cfg, o)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
}

// transportErrorOps classifies and explains errors with package transports.
func transportErrorOps() errorOps {
	return errorOps{
		classify: func(err error) (lifecycle.ErrClass, string) {
			c := transports.Classify(err)
			return fromTransportClass(c), c.String()
		},
		humanize: transports.Humanize,
		broke:    transports.Broke,
		exitCode: func(err error) (int, bool) {
			var x *transports.ExitError
			if errors.As(err, &x) {
				return x.Code, true
			}
			return 0, false
		},
	}
}

// fromTransportClass maps transports' classes onto the engine's policy.
func fromTransportClass(c transports.Class) lifecycle.ErrClass {
	switch c {
	case transports.ClassTransient:
		return lifecycle.ClassTransient
	case transports.ClassTerminal:
		return lifecycle.ClassTerminal
	case transports.ClassAuth:
		return lifecycle.ClassAuth
	case transports.ClassSessionExpired:
		return lifecycle.ClassSessionExpired
	case transports.ClassExited:
		return lifecycle.ClassExited
	case transports.ClassTimeout:
		return lifecycle.ClassTimeout
	case transports.ClassTooLarge:
		return lifecycle.ClassTooLarge
	case transports.ClassUnknown, transports.ClassProtocol, transports.ClassCanceled, transports.ClassRPC:
		return lifecycle.ClassOther
	}
	return lifecycle.ClassOther
}
