package clierr

import (
	"context"
	"errors"
)

// ErrTerminated is the cause of a command's context ended by SIGTERM: a
// program (an agent stopping the server it started, a service manager)
// asked mcpdeck to stop, which is no failure, where Ctrl-C (SIGINT) and a
// closed terminal (SIGHUP) interrupt it.
var ErrTerminated = errors.New("asked to stop (SIGTERM)")

// Terminated reports whether ctx ended because mcpdeck was asked to stop
// (ErrTerminated), rather than interrupted.
func Terminated(ctx context.Context) bool { return errors.Is(context.Cause(ctx), ErrTerminated) }
