package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// askURI is the -ask resource whose read asks the client for a name.
const askURI = "fault://ask"

// askOptions are the capabilities -ask adds (resources come with the ticker).
func askOptions() []server.ServerOption {
	return []server.ServerOption{server.WithPromptCapabilities(false)}
}

// askForm is a form asking for one string property.
func askForm(message, property string) mcp.ElicitationParams {
	return mcp.ElicitationParams{Message: message, RequestedSchema: map[string]any{
		"type":       "object",
		"properties": map[string]any{property: map[string]any{"type": "string"}},
		"required":   []string{property},
	}}
}

// askAnswer is the accepted answer's property, or why there is none.
func askAnswer(res *mcp.ElicitationResult, property string) (string, string) {
	if res == nil {
		return "", "no answer"
	}
	if res.Action != mcp.ElicitationResponseActionAccept {
		return "", string(res.Action)
	}
	c, _ := res.Content.(map[string]any)
	v, _ := c[property].(string)
	return v, ""
}

// askURL is the page the -ask tool visit asks the user to open.
const askURL = "https://example.test/sign-in"

// addAsk adds what -ask serves: caps and ask_three (askround.go), the tool interview (two questions, one per
// input-required round, the first answer kept in the request state), the
// tool visit (a URL elicitation), the tool ask_many (many questions in one
// round), the prompt greet (one question,
// input-required) and the resource fault://ask (a server-to-client
// elicitation/create, so only on a session before 2026-07-28).
func addAsk(s *server.MCPServer) {
	addAskRound(s)
	s.AddTool(mcp.NewTool("visit", mcp.WithDescription("Ask the user to open a page (URL elicitation)")),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if res := server.ElicitationResponse(r.Params.InputResponses, "visit"); res != nil {
				return text("visit: " + string(res.Action)), nil
			}
			return server.NewInputRequestBuilder("").Elicit("visit", mcp.ElicitationParams{
				Mode: mcp.ElicitationModeURL, Message: "Sign in, please", URL: askURL, ElicitationID: "visit-1",
			}).ToolResult(), nil
		})
	s.AddTool(mcp.NewTool("interview", mcp.WithDescription("Ask for a name, then a colour (two rounds of input)")),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			state, in := r.Params.RequestState, r.Params.InputResponses
			switch {
			case state == "":
				return server.NewInputRequestBuilder("name").Elicit("name", askForm("Your name?", "name")).ToolResult(), nil
			case state == "name":
				name, why := askAnswer(server.ElicitationResponse(in, "name"), "name")
				if why != "" {
					return text("the name was not given: " + why), nil
				}
				return server.NewInputRequestBuilder("colour:"+name).Elicit("colour", askForm(name+", your favourite colour?", "colour")).ToolResult(), nil
			case strings.HasPrefix(state, "colour:"):
				colour, why := askAnswer(server.ElicitationResponse(in, "colour"), "colour")
				if why != "" {
					return text("the colour was not given: " + why), nil
				}
				return text(fmt.Sprintf("%s likes %s", strings.TrimPrefix(state, "colour:"), colour)), nil
			}
			return mcp.NewToolResultError("unknown request state " + state), nil
		})
	s.AddTool(mcp.NewTool("ask_many", mcp.WithDescription("Ask count questions at once (one input-required round)"), mcp.WithNumber("count")),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if len(r.Params.InputResponses) > 0 {
				return text(fmt.Sprintf("%d answers", len(r.Params.InputResponses))), nil
			}
			b := server.NewInputRequestBuilder("many")
			for i := range r.GetInt("count", 100) {
				b.Elicit(fmt.Sprintf("q%d", i), askForm(fmt.Sprintf("Question %d?", i), "answer"))
			}
			return b.ToolResult(), nil
		})
	s.AddPrompt(mcp.NewPrompt("greet", mcp.WithPromptDescription("Greet someone whose name it asks for")),
		func(_ context.Context, r mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			res := server.ElicitationResponse(r.Params.InputResponses, "name")
			if res == nil {
				return server.NewInputRequestBuilder("").Elicit("name", askForm("Whom to greet?", "name")).PromptResult(), nil
			}
			name, why := askAnswer(res, "name")
			if why != "" {
				name = "nobody (" + why + ")"
			}
			return mcp.NewGetPromptResult("greet", []mcp.PromptMessage{
				mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("Hello "+name)),
			}), nil
		})
	s.AddResource(mcp.NewResource(askURI, "ask", mcp.WithMIMEType("text/plain")),
		func(ctx context.Context, _ mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			res, err := s.RequestElicitation(ctx, mcp.ElicitationRequest{Params: askForm("Name for the resource?", "name")})
			if err != nil {
				return nil, fmt.Errorf("elicitation failed: %w", err)
			}
			name, why := askAnswer(res, "name")
			if why != "" {
				name = "(" + why + ")"
			}
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: askURI, MIMEType: "text/plain", Text: "resource for " + name}}, nil
		})
}
