package engine

import "encoding/json"

// Content is one processed piece of a tool, resource or prompt result. Large
// text and all binary data are written to files under the cache dir; Path
// then names the file and Text holds a summary.
type Content struct {
	// Kind is MCP's content type (text, image, audio, resource,
	// resource_link), named "type" in JSON as MCP names it, so --json output
	// reads like the protocol.
	Kind     string `json:"type"`
	Text     string `json:"text,omitempty"`
	MIMEType string `json:"mimeType,omitempty"`
	URI      string `json:"uri,omitempty"`
	Path     string `json:"path,omitempty"`
	Size     int    `json:"size,omitempty"` // bytes of the original data
	Role     string `json:"role,omitempty"` // prompt messages: user / assistant
}

// ToolResult is a processed tools/call result.
type ToolResult struct {
	Content    []Content       `json:"content"`
	Structured json.RawMessage `json:"structuredContent,omitempty"`
	IsError    bool            `json:"isError,omitempty"`
}

// ResourceResult is a processed resources/read result.
type ResourceResult struct {
	Contents []Content `json:"contents"`
}

// PromptResult is a processed prompts/get result.
type PromptResult struct {
	Description string    `json:"description,omitempty"`
	Messages    []Content `json:"messages"`
}

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
}

// ElicitResponse is the person's answer.
type ElicitResponse struct {
	Action  string         `json:"action"` // accept, decline, cancel
	Content map[string]any `json:"content,omitempty"`
	// Reason explains a decline or cancel for logs and screens; it is not
	// sent to the server.
	Reason string `json:"reason,omitempty"`
}
