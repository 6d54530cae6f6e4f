package inorder

import (
	"context"
	"io"
)

// Lines is a stdio server's output, one JSON-RPC message a line: give it
// to mcp-go's StdioServer.Listen as the writer, and With's context as the
// context, so what Send sends is written before the result. out must
// take each Write whole (mcp-go writes a message in one).
type Lines struct{ s *Stream }

// NewLines makes the output on out.
func NewLines(out io.Writer) *Lines {
	return &Lines{s: newStream(out, func(msg []byte) []byte { return append(msg, '\n') })}
}

// With returns ctx carrying l, for the requests served on it.
func (l *Lines) With(ctx context.Context) context.Context {
	return context.WithValue(ctx, streamKey{}, l.s)
}

// Write writes a message of the server's, after the queued notifications.
func (l *Lines) Write(p []byte) (int, error) { return l.s.serverWrite(p, false) }

// Close stops taking notifications, without waiting for a write under way
// (a reader that stopped reading must not hold up the end).
func (l *Lines) Close() { l.s.close(false) }
