package engine

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
)

// RootsRequest is a server's roots/list as Options.Roots gets it.
type RootsRequest struct {
	Server string
	// Request is the call this is for, on a 2026-07-28 session ("tools/call
	// NAME"); "" for a request the server sent on its own.
	Request string
	// Project is mcpdeck's own answer: the project's root.
	Project []mcp.Root
	// Input places it in its call's input-required round.
	Input InputKey
}

// RootsFunc answers a server's roots/list.
type RootsFunc func(ctx context.Context, req RootsRequest) ([]mcp.Root, error)
