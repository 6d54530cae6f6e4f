package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// fileTool is one tool of a -tools-file.
type fileTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// toolsFileServer serves only the tools path lists, each answering "ok
// NAME": a server whose tools a test changes between runs while its
// definition stays the same (a rug pull).
func toolsFileServer(path string) *server.MCPServer {
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var tools []fileTool
	if err := json.Unmarshal(b, &tools); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	s := server.NewMCPServer("toolsfile", "1.0.0", server.WithToolCapabilities(true))
	for _, t := range tools {
		schema := t.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		name := t.Name
		s.AddTool(mcp.NewToolWithRawSchema(name, t.Description, schema),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text("ok " + name), nil
			})
	}
	return s
}
