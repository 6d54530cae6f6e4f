package engine

import (
	"context"
	"errors"

	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/transports"
)

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
