package resultfile

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
