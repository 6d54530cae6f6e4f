package transports

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/client"

	"github.com/mcpdeck/mcpdeck/model"
)

// openSDK connects in-process to the built-in server cfg.Name. A fresh server
// instance is built per Open. Elicitation and roots reach our handlers
// through mcp-go's in-process session.
func openSDK(ctx context.Context, c *Conn, cfg model.ServerConfig, opts Options) error {
	build := opts.Builtins[cfg.Name]
	if build == nil {
		return fmt.Errorf("%w: %q", ErrNoBuiltin, cfg.Name)
	}
	srv := build()
	if srv == nil {
		return fmt.Errorf("%w: %q built nothing", ErrNoBuiltin, cfg.Name)
	}
	cl, err := client.NewInProcessClientWithOptions(srv, clientOptions(opts, true)...)
	if err != nil {
		return err
	}
	c.client = cl
	c.shutdown = func(context.Context) error { return cl.Close() }
	return cl.Start(context.WithoutCancel(ctx))
}
