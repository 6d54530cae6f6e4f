package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// addAskRound adds the -ask tools a gateway's relaying is checked with:
// caps (the client capabilities the request declared, on 2026-07-28) and
// ask_three (an elicitation, a sampling request and roots/list in one
// input-required round, under the keys user_name, greeting and
// client_roots; its result names each answer by its key).
func addAskRound(s *server.MCPServer) {
	s.AddTool(mcp.NewTool("caps", mcp.WithDescription("Say which client capabilities the request declared")),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var caps any
			if m := r.Params.Meta; m != nil {
				caps = m.AdditionalFields[mcp.MetaKeyClientCapabilities]
			}
			b, _ := json.Marshal(caps)
			return text(string(b)), nil
		})
	s.AddTool(mcp.NewTool("ask_three", mcp.WithDescription("Ask a name, the model and the roots in one round")),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			in := r.Params.InputResponses
			if len(in) == 0 {
				return server.NewInputRequestBuilder("three").
					Elicit("user_name", askForm("Your name?", "name")).
					Sample("greeting", mcp.CreateMessageParams{
						Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("Greet")}},
						MaxTokens: 20,
					}).
					Roots("client_roots").ToolResult(), nil
			}
			var parts []string
			if name, why := askAnswer(server.ElicitationResponse(in, "user_name"), "name"); why == "" {
				parts = append(parts, "user_name="+name)
			}
			if res := server.SamplingResponse(in, "greeting"); res != nil {
				reply := fmt.Sprint(res.Content)
				if t, ok := res.Content.(mcp.TextContent); ok {
					reply = t.Text
				} else if m, ok := res.Content.(map[string]any); ok {
					reply = fmt.Sprint(m["text"])
				}
				parts = append(parts, "greeting="+reply)
			}
			if res := server.RootsResponse(in, "client_roots"); res != nil {
				var uris []string
				for _, root := range res.Roots {
					uris = append(uris, root.URI)
				}
				parts = append(parts, "client_roots="+strings.Join(uris, ","))
			}
			return text(fmt.Sprintf("%d answers: %s", len(in), strings.Join(parts, "; "))), nil
		})
}
