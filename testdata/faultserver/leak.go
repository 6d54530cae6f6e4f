package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// leakOptions adds, for -leak-auth, the hook that answers initialize with
// instructions naming the credential the client sent ("Bearer X" -> X),
// for -leak-path the path of the URL it was sent to, and for -say the
// text; as a careless server might echo them. Tests check they are
// masked.
func leakOptions(c config, hooks *server.Hooks) []server.ServerOption {
	if !c.leakAuth && !c.leakPath && c.say == "" && !c.sayClient {
		return nil
	}
	hooks.AddAfterInitialize(func(ctx context.Context, _ any, req *mcp.InitializeRequest, res *mcp.InitializeResult) {
		var says []string
		if c.leakAuth {
			auth := req.Header.Get("Authorization")
			if _, cred, ok := strings.Cut(auth, " "); ok {
				auth = cred
			}
			says = append(says, "signed in with "+auth)
		}
		if p, ok := ctx.Value(pathKey{}).(string); ok && c.leakPath {
			says = append(says, "served at "+p)
		}
		if c.say != "" {
			says = append(says, c.say)
		}
		if c.sayClient {
			says = append(says, "client "+req.Params.ClientInfo.Name+" "+req.Params.ClientInfo.Version)
		}
		res.Instructions = strings.Join(says, "; ")
	})
	return nil
}

// pathKey holds the request's URL path in an HTTP request's context.
type pathKey struct{}

// withPath is the streamable HTTP server's context function: -leak-path
// reads the path from it.
func withPath(ctx context.Context, r *http.Request) context.Context {
	return context.WithValue(ctx, pathKey{}, r.URL.Path)
}

// addLeaks, for -leak-env NAME, prints the variable's value on stderr and
// adds a tool "leak" whose description holds it, so it travels in the
// tools/list result; for -say TEXT, prints TEXT on stderr.
func addLeaks(s *server.MCPServer, c config) {
	if c.say != "" {
		fmt.Fprintln(os.Stderr, "saying "+c.say)
	}
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
