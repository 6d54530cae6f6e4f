package engine

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine/resultfile"
)

// Content is one processed piece of a tool, resource or prompt result
// (resultfile.Content).
type Content = resultfile.Content

// ToolResult is a processed tools/call result.
type ToolResult = resultfile.ToolResult

// ResourceResult is a processed resources/read result.
type ResourceResult = resultfile.ResourceResult

// PromptResult is a processed prompts/get result.
type PromptResult = resultfile.PromptResult

// Progress is one progress notification for a running call.
type Progress struct {
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"`
	Message  string  `json:"message,omitempty"`
}

// ElicitRequest is a server's elicitation/create, or a -32042 URL elicitation
// raised by a tool call, routed to the UI.
type ElicitRequest struct {
	Server        string          `json:"server"`
	Mode          string          `json:"mode"` // "form" or "url"
	Message       string          `json:"message"`
	Schema        json.RawMessage `json:"requestedSchema,omitempty"`
	URL           string          `json:"url,omitempty"`
	ElicitationID string          `json:"elicitationId,omitempty"`
	// Request names the request the input is for ("tools/call NAME") when
	// the server asked for it by answering that request "input required";
	// empty for a server's own elicitation/create.
	Request string `json:"request,omitempty"`
	// Input places it in its call's input-required round.
	Input InputKey `json:"-"`
}

// ElicitResponse is the person's answer.
type ElicitResponse struct {
	Action  string         `json:"action"` // accept, decline, cancel
	Content map[string]any `json:"content,omitempty"`
	// Reason explains a decline or cancel for logs and screens; it is not
	// sent to the server.
	Reason string `json:"reason,omitempty"`
}

// RootsRequest is a server's roots/list as Options.Roots gets it.
type RootsRequest struct {
	Server string
	// Request is the call this is for, on a 2026-07-28 session ("tools/call
	// NAME"); "" for a request the server sent on its own.
	Request string
	// Project is mcpdeck's own answer: the project's root.
	Project []mcp.Root
	// Input places it in its call's input-required round.
	Input InputKey
}

// RootsFunc answers a server's roots/list.
type RootsFunc func(ctx context.Context, req RootsRequest) ([]mcp.Root, error)
