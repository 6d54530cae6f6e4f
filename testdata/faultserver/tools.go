package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/ui/serve/inorder"
)

// hooks are the transport-specific actions some tools need.
type hooks struct {
	drop     func()       // close the connection mid-call
	writeRaw func(string) // write a raw line to the client (stdio)
	flood    *flood       // -elicit-flood, -sample-flood (stdio); nil for none
}

func text(s string) *mcp.CallToolResult { return mcp.NewToolResultText(s) }

// newServer builds the MCP server with the normal and fault tools.
func newServer(c config, h hooks) *server.MCPServer {
	if c.toolsFile != "" {
		return toolsFileServer(c.toolsFile)
	}
	opts := []server.ServerOption{
		server.WithToolCapabilities(true),
		server.WithLogging(),
		server.WithInstructions("faultserver: a test server that misbehaves on request"),
	}
	if c.tools > 0 && !c.onePage {
		opts = append(opts, server.WithPaginationLimit(100))
	}
	tick := &ticker{}
	sh := &server.Hooks{}
	opts = append(opts, tick.options(sh)...)
	opts = append(opts, leakOptions(c, sh)...)
	var self *server.MCPServer // set below: the hook runs only once it serves
	if d := c.logAfterLevel; d > 0 {
		sh.AddAfterSetLevel(func(ctx context.Context, _ any, _ *mcp.SetLevelRequest, _ *mcp.EmptyResult) {
			ctx = context.WithoutCancel(ctx)
			go func() {
				time.Sleep(d)
				_ = self.SendNotificationToClient(ctx, "notifications/message",
					map[string]any{"level": "info", "logger": "start", "data": fmt.Sprintf("told %v after the level was set", d)})
			}()
		})
	}
	opts = append(opts, server.WithHooks(sh))
	if c.hostile {
		opts = append(opts, hostileOptions()...)
	}
	if c.ask {
		opts = append(opts, askOptions()...)
	}
	if c.crashEverywhere && !c.ask {
		opts = append(opts, crashOptions()...)
	}
	s := server.NewMCPServer("faultserver", "1.0.0", opts...)
	self = s
	tick.add(s)
	addLeaks(s, c)
	var added atomic.Int64

	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Echo text back"), mcp.WithString("text", mcp.Required())),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(r.GetString("text", "")), nil
		})
	s.AddTool(mcp.NewTool("add", mcp.WithDescription("Add two numbers"), mcp.WithNumber("a", mcp.Required()), mcp.WithNumber("b", mcp.Required())),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(fmt.Sprint(r.GetFloat("a", 0) + r.GetFloat("b", 0))), nil
		})
	s.AddTool(mcp.NewTool("pids", mcp.WithDescription("Process ids of the server and its grandchild")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(fmt.Sprintf(`{"pid":%d,"grandchild":%d,"daemon":%d}`, os.Getpid(), grandchildPID.Load(), daemonPID.Load())), nil
		})
	s.AddTool(mcp.NewTool("env", mcp.WithDescription("Value of an environment variable"), mcp.WithString("name", mcp.Required())),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(os.Getenv(r.GetString("name", ""))), nil
		})
	s.AddTool(mcp.NewTool("cwd", mcp.WithDescription("Working directory")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			wd, _ := os.Getwd()
			return text(wd), nil
		})
	s.AddTool(mcp.NewTool("progress", mcp.WithDescription("Send progress notifications"), mcp.WithNumber("steps")),
		func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			steps := r.GetInt("steps", 3)
			var token any
			if r.Params.Meta != nil {
				token = r.Params.Meta.ProgressToken
			}
			for i := 1; i <= steps; i++ {
				if token != nil {
					_ = inorder.Send(ctx, s, "notifications/progress", map[string]any{
						"progressToken": token, "progress": i, "total": steps, "message": fmt.Sprintf("step %d", i),
					})
				}
			}
			return text(fmt.Sprintf("did %d steps", steps)), nil
		})
	s.AddTool(mcp.NewTool("elicit", mcp.WithDescription("Ask the user via elicitation"), mcp.WithString("message")),
		func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := s.RequestElicitation(ctx, mcp.ElicitationRequest{Params: mcp.ElicitationParams{
				Message: r.GetString("message", "What is your name?"),
				RequestedSchema: map[string]any{
					"type":       "object",
					"properties": map[string]any{"name": map[string]any{"type": "string", "default": "Ada"}},
					"required":   []string{"name"},
				},
			}})
			if err != nil {
				return mcp.NewToolResultError("elicitation failed: " + err.Error()), nil
			}
			b, _ := json.Marshal(res)
			return text(string(b)), nil
		})
	s.AddTool(mcp.NewTool("sample", mcp.WithDescription("Ask the client's model for a reply (sampling)"), mcp.WithString("prompt")),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if res := server.SamplingResponse(r.Params.InputResponses, "llm"); res != nil {
				reply := fmt.Sprint(res.Content)
				if t, ok := res.Content.(mcp.TextContent); ok {
					reply = t.Text
				} else if m, ok := res.Content.(map[string]any); ok {
					reply = fmt.Sprint(m["text"])
				}
				return text(res.Model + ": " + reply), nil
			}
			return server.NewInputRequestBuilder("").Sample("llm", mcp.CreateMessageParams{
				Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(r.GetString("prompt", "hello"))}},
				MaxTokens: 30,
			}).ToolResult(), nil
		})
	s.AddTool(mcp.NewTool("roots", mcp.WithDescription("Ask the client for its roots")),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := s.RequestRoots(ctx, mcp.ListRootsRequest{})
			if err != nil {
				return mcp.NewToolResultError("roots failed: " + err.Error()), nil
			}
			b, _ := json.Marshal(res.Roots)
			return text(string(b)), nil
		})
	s.AddTool(mcp.NewTool("list_changed", mcp.WithDescription("Add a tool (sends tools/list_changed)")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			name := fmt.Sprintf("added_%d", added.Add(1))
			s.AddTool(mcp.NewTool(name, mcp.WithDescription("added at runtime")),
				func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text(name), nil })
			return text("added " + name), nil
		})
	s.AddTool(mcp.NewTool("crash", mcp.WithDescription("Exit the server process"), mcp.WithNumber("code")),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			code := r.GetInt("code", c.exitCode)
			fmt.Fprintf(os.Stderr, "crashing with code %d\n", code)
			os.Exit(code)
			return nil, nil
		})
	s.AddTool(mcp.NewTool("hang", mcp.WithDescription("Never answer")),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
	s.AddTool(mcp.NewTool("stall", mcp.WithDescription(`Ask to go on (form elicitation), print "stalling" on stderr, then never answer: over streamable HTTP the answer is then due on the call's own event stream`)),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_, err := s.RequestElicitation(ctx, mcp.ElicitationRequest{Params: mcp.ElicitationParams{
				Message:         "Go on?",
				RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
			}})
			if err != nil {
				return nil, err
			}
			fmt.Fprintln(os.Stderr, "stalling")
			<-ctx.Done()
			return nil, ctx.Err()
		})
	s.AddTool(mcp.NewTool("slow", mcp.WithDescription("Answer after ms milliseconds"), mcp.WithNumber("ms")),
		func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			t := time.NewTimer(time.Duration(r.GetInt("ms", 1000)) * time.Millisecond)
			defer t.Stop()
			select {
			case <-t.C:
				return text("slow done"), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
	s.AddTool(mcp.NewTool("drop", mcp.WithDescription("Close the connection mid-call")),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if h.drop != nil {
				h.drop()
			}
			<-ctx.Done()
			return nil, ctx.Err()
		})
	s.AddTool(mcp.NewTool("flood", mcp.WithDescription("Send count log notifications"), mcp.WithNumber("count")),
		func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			n := r.GetInt("count", 1000)
			for i := range n {
				params := map[string]any{"level": "info", "logger": "flood", "data": fmt.Sprintf("flood %d", i)}
				// the session's queue is bounded: wait for room rather than drop
				for s.SendNotificationToClient(ctx, "notifications/message", params) != nil {
					if ctx.Err() != nil {
						return nil, ctx.Err()
					}
					time.Sleep(100 * time.Microsecond)
				}
			}
			return text(fmt.Sprintf("sent %d notifications", n)), nil
		})
	s.AddTool(mcp.NewTool("log", mcp.WithDescription("Send text as one log notification"), mcp.WithString("text", mcp.Required())),
		func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			params := map[string]any{"level": "warning", "logger": "log", "data": r.GetString("text", "")}
			// Before the result, as a server sends what it logs during a call.
			if err := inorder.Send(ctx, s, "notifications/message", params); err != nil {
				return nil, err
			}
			return text("logged"), nil
		})
	s.AddTool(mcp.NewTool("stderr", mcp.WithDescription("Write mb megabytes to stderr"), mcp.WithNumber("mb")),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			floodStderr(r.GetInt("mb", 1))
			return text("flooded"), nil
		})
	s.AddTool(mcp.NewTool("malformed", mcp.WithDescription("Write a malformed JSON-RPC line (stdio)")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if h.writeRaw != nil {
				h.writeRaw(`{"jsonrpc":"2.0","id":`)
			}
			return text("wrote garbage"), nil
		})
	s.AddTool(mcp.NewTool("huge", mcp.WithDescription("Write one notification line of mb megabytes (stdio)"), mcp.WithNumber("mb")),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if h.writeRaw != nil {
				pad := strings.Repeat("A", r.GetInt("mb", 40)<<20)
				h.writeRaw(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + pad + `"}}`)
			}
			return text("wrote a huge line"), nil
		})
	size := c.descKB * 1024
	if c.descBytes > 0 {
		size = c.descBytes
	}
	addGenerated(s, c.tools, size, c.plainDesc)
	if c.hostile {
		addHostile(s)
	}
	if c.ask {
		addAsk(s)
	}
	if c.crashEverywhere {
		addCrashers(s, c.exitCode)
	}
	addFlood(s, h.flood)
	return s
}

// addGenerated adds n tools whose descriptions are kb KB long and contain
// control, escape and bidi characters.
func addGenerated(s *server.MCPServer, n, size int, plain bool) {
	if n <= 0 {
		return
	}
	unit := "Bad\x1b[31m red\x07 bell\u202e reversed\u200f\x00 nul\ttab\n"
	if plain {
		unit = "Lists the records that match a query, newest first. "
	}
	desc := strings.Repeat(unit, size/len(unit)+1)[:size]
	tools := make([]server.ServerTool, n)
	for i := range tools {
		name := fmt.Sprintf("tool_%05d", i)
		tools[i] = server.ServerTool{
			Tool: mcp.NewTool(name, mcp.WithDescription(desc)),
			Handler: func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text(name), nil
			},
		}
	}
	s.AddTools(tools...)
}
