package engine

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpdeck/mcpdeck/engine/toolspage"
)

// ToolDefinition is a tool as its server defines it, description not
// capped: what a model is sent (ui/contextcost counts it). Snapshots
// keep a capped, sanitized copy instead; this is read afresh on demand.
type ToolDefinition struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
}

// definitionOf is the definition of a tool as the stream reader read it.
func definitionOf(w *toolspage.Wire) ToolDefinition {
	return ToolDefinition{Name: w.Name, Description: w.Description, InputSchema: w.InputSchema}
}

// ToolDefinitions lists server's tools again and returns their definitions
// as the server sent them, read from the raw answer (mcp-go's decoded form
// for a page the stream reader refused).
func (e *Engine) ToolDefinitions(ctx context.Context, server string) ([]ToolDefinition, error) {
	c := e.calls
	t, err := c.target(server)
	if err != nil {
		return nil, err
	}
	var out []ToolDefinition
	var cursor mcp.Cursor
	seen := map[mcp.Cursor]bool{}
	for {
		var r *mcp.ListToolsResult
		var page []ToolDefinition
		cctx, read := toolspage.Take(ctx, func() { page = page[:0] }, func(w *toolspage.Wire) { page = append(page, definitionOf(w)) })
		err := c.do(ctx, t, func(s session) error {
			req := mcp.ListToolsRequest{}
			req.Params.Cursor = cursor
			var err error
			r, err = s.Client().ListToolsByPage(cctx, req)
			return err
		})
		if err != nil {
			return nil, c.callError(ctx, server, "listing tools", err)
		}
		if read() {
			out = append(out, page...)
		} else {
			for _, x := range r.Tools {
				w := toolspage.FromMCP(x)
				out = append(out, definitionOf(&w))
			}
		}
		if r.NextCursor == "" || seen[r.NextCursor] || len(out) >= maxListItems {
			return out[:min(len(out), maxListItems)], nil
		}
		seen[r.NextCursor] = true
		cursor = r.NextCursor
	}
}
