package resultfile

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

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
	// Sent is the result as the server sent it, for output that must be
	// MCP (the CLI's --json); Content[i] is Sent.Content[i] processed.
	Sent *mcp.CallToolResult `json:"-"`
}

// ResourceResult is a processed resources/read result.
type ResourceResult struct {
	Contents []Content `json:"contents"`
	// Sent is the result as the server sent it (ToolResult.Sent);
	// Contents[i] is Sent.Contents[i] processed.
	Sent *mcp.ReadResourceResult `json:"-"`
}

// PromptResult is a processed prompts/get result.
type PromptResult struct {
	Description string    `json:"description,omitempty"`
	Messages    []Content `json:"messages"`
	// Sent is the result as the server sent it (ToolResult.Sent);
	// Messages[i] is Sent.Messages[i] processed.
	Sent *mcp.GetPromptResult `json:"-"`
}
