package serve

import (
	"context"
	"errors"
	"io"
	"log"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/ui/serve/inorder"
)

// ServeStdio speaks MCP on in and out (the agent started mcpdeck serve)
// until in ends or ctx is done. out carries JSON-RPC only: notes go to
// Options.Log.
func (g *Gateway) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	s := server.NewStdioServer(g.srv)
	s.SetErrorLogger(log.New(g.log, "mcpdeck serve: ", 0))
	o := &stdioOut{w: out}
	rest, stop := g.stdioFront(in, o) // plain list requests answered from the cache
	// A call's progress is written before its result (mcp-go writes
	// notifications from a goroutine the result can overtake).
	lines := inorder.NewLines(o)
	err := s.Listen(lines.With(ctx), rest, lines)
	stop()
	lines.Close()
	o.close()
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil
	}
	return err
}
