package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// leakOptions adds, for -leak-auth, the hook that answers initialize with
// instructions naming the credential the client sent ("Bearer X" -> X),
// as a careless server might echo it; support-bundle tests check it is
// masked.
func leakOptions(c config, hooks *server.Hooks) []server.ServerOption {
	if !c.leakAuth {
		return nil
	}
	hooks.AddAfterInitialize(func(_ context.Context, _ any, req *mcp.InitializeRequest, res *mcp.InitializeResult) {
		auth := req.Header.Get("Authorization")
		if _, cred, ok := strings.Cut(auth, " "); ok {
			auth = cred
		}
		res.Instructions = "signed in with " + auth
	})
	return nil
}

// addLeaks, for -leak-env NAME, prints the variable's value on stderr and
// adds a tool "leak" whose description holds it, so it travels in the
// tools/list result.
func addLeaks(s *server.MCPServer, c config) {
	if c.leakEnv == "" {
		return
	}
	v := os.Getenv(c.leakEnv)
	fmt.Fprintf(os.Stderr, "starting; %s is %s\n", c.leakEnv, v)
	s.AddTool(mcp.NewTool("leak", mcp.WithDescription("uses key "+v)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("key " + v), nil
		})
}
