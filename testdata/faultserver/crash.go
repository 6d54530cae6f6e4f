package main

import (
	"context"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// crashURI is the resource that -crash-everywhere adds.
const crashURI = "fault://crash"

// crashOptions declare the prompts that -crash-everywhere adds.
func crashOptions() []server.ServerOption {
	return []server.ServerOption{server.WithPromptCapabilities(false)}
}

// addCrashers adds the resource fault://crash and the prompt crash, which
// exit with code like the crash tool: a server dying during a read or a
// prompt get.
func addCrashers(s *server.MCPServer, code int) {
	crash := func() {
		fmt.Fprintf(os.Stderr, "crashing with code %d\n", code)
		os.Exit(code)
	}
	s.AddResource(mcp.NewResource(crashURI, "crash", mcp.WithMIMEType("text/plain")),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			crash()
			return nil, nil
		})
	s.AddPrompt(mcp.NewPrompt("crash", mcp.WithPromptDescription("Exit the server process")),
		func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			crash()
			return nil, nil
		})
}
