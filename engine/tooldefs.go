package engine

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/transports"
)

// ToolDefinition is a tool as its server defines it, description not
// capped: what a model is sent (engine/contextcost counts it). Snapshots
// keep a capped, sanitized copy instead; this is read afresh on demand.
type ToolDefinition struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
}

// ToolDefinitions lists server's tools again and returns their definitions
// as the server sent them, read from the raw answer (mcp-go's decoded form
// for a page the stream reader refused).
func (e *Engine) ToolDefinitions(ctx context.Context, server string) ([]ToolDefinition, error) {
	e.mu.Lock()
	t, _, err := e.connected(server)
	e.mu.Unlock()
	if err != nil {
		return nil, err
	}
	var out []ToolDefinition
	var cursor mcp.Cursor
	seen := map[mcp.Cursor]bool{}
	for {
		var r *mcp.ListToolsResult
		var page []ToolDefinition
		read := false
		cctx := transports.TakeResult(ctx, string(mcp.MethodToolsList), func(raw json.RawMessage) json.RawMessage {
			page = page[:0]
			slim, err := readToolsPage(raw, func(w *wireTool) {
				page = append(page, ToolDefinition{Name: w.Name, Description: w.Description, InputSchema: w.InputSchema})
			})
			if read = err == nil; !read {
				return raw // mcp-go decodes it as it is, and says what is wrong
			}
			return slim
		})
		err := e.do(ctx, t, func(c session) error {
			req := mcp.ListToolsRequest{}
			req.Params.Cursor = cursor
			var err error
			r, err = c.Client().ListToolsByPage(cctx, req)
			return err
		})
		if err != nil {
			return nil, e.callError(ctx, server, "listing tools", err)
		}
		if read {
			out = append(out, page...)
		} else {
			for _, x := range r.Tools {
				schema := x.RawInputSchema
				if len(schema) == 0 {
					schema, _ = json.Marshal(x.InputSchema)
				}
				out = append(out, ToolDefinition{Name: x.Name, Description: x.Description, InputSchema: schema})
			}
		}
		if r.NextCursor == "" || seen[r.NextCursor] || len(out) >= maxListItems {
			return out[:min(len(out), maxListItems)], nil
		}
		seen[r.NextCursor] = true
		cursor = r.NextCursor
	}
}
