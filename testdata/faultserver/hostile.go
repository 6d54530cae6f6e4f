package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// hostileText is in every string -hostile serves: it would write the
// clipboard (OSC 52), erase the line, return the carriage, reverse the text
// (U+202E), send C1 controls (NEL, 8-bit CSI), hide characters (tag) and
// move the cursor up.
const hostileText = "\x1b]52;c;ZXZpbA==\x07\x1b[2K\r\u202e\u0085\u009b31m\U000E0041\x1b[1Aend"

// hostileURI is the URI of the -hostile resource (a client must pass it back
// exactly to read it).
const hostileURI = "file:///evil" + hostileText

// hostileOptions are the capabilities and instructions -hostile adds.
func hostileOptions() []server.ServerOption {
	return []server.ServerOption{
		server.WithResourceCapabilities(false, false),
		server.WithPromptCapabilities(false),
		server.WithInstructions("instructions " + hostileText),
	}
}

// addHostile adds a tool, resource and prompt whose every string (names,
// URIs, MIME types, argument names, results, structured content) carries
// hostileText, and writes it to stderr.
func addHostile(s *server.MCPServer) {
	fmt.Fprintln(os.Stderr, "stderr "+hostileText)
	s.AddTool(mcp.NewTool("evil"+hostileText, mcp.WithDescription("tool "+hostileText), mcp.WithTitleAnnotation("title "+hostileText)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("x"), nil })
	s.AddTool(mcp.NewTool("hostile", mcp.WithDescription("Return hostile content of every kind")),
		func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if r.Params.Meta != nil && r.Params.Meta.ProgressToken != nil {
				_ = s.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
					"progressToken": r.Params.Meta.ProgressToken, "progress": 1, "total": 2, "message": "progress " + hostileText,
				})
			}
			res := &mcp.CallToolResult{Content: []mcp.Content{
				mcp.NewTextContent("text " + hostileText),
				mcp.NewResourceLink(hostileURI, "link "+hostileText, "desc "+hostileText, "text/"+hostileText),
				mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: hostileURI, MIMEType: "text/" + hostileText, Text: "embedded " + hostileText}),
				mcp.NewImageContent(base64.StdEncoding.EncodeToString([]byte("GIF89a")), "image/"+hostileText),
			}}
			return res, nil
		})
	s.AddTool(mcp.NewTool("hostile_structured", mcp.WithDescription("Return only structured content")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: map[string]any{"k" + hostileText: "v " + hostileText}}, nil
		})
	s.AddTool(mcp.NewTool("hostile_error", mcp.WithDescription("Fail with a hostile message")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("error " + hostileText), nil
		})
	s.AddResource(mcp.NewResource(hostileURI, "resource "+hostileText, mcp.WithMIMEType("text/"+hostileText), mcp.WithResourceDescription("rdesc "+hostileText)),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: hostileURI, MIMEType: "text/" + hostileText, Text: "contents " + hostileText}}, nil
		})
	s.AddPrompt(mcp.NewPrompt("hostile", mcp.WithPromptDescription("prompt "+hostileText),
		mcp.WithArgument("arg"+hostileText, mcp.ArgumentDescription("adesc "+hostileText))),
		func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("result "+hostileText, []mcp.PromptMessage{
				mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("message "+hostileText)),
			}), nil
		})
}
