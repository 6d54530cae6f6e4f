// Package resultfile turns the raw content of MCP results (tool calls,
// resource reads, prompts) into Content values for screens and --json:
// text sanitized, long text and every binary payload written to files
// under the cache directory so that what is shown stays small.
package resultfile

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	"os"
	"path/filepath"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// maxInlineText bounds text kept inline; longer text goes to a file.
const maxInlineText = 100000

// Writer turns raw MCP content into Content values: text
// over maxInlineText characters and every binary payload are written to files
// under dir so that screens and --json output stay small.
type Writer struct {
	cacheDir string // files go to <cacheDir>/results/<server>
	server   string
	textCap  int // characters of a description kept (the engine's cap)
}

// New is the writer of server's results; descriptions keep at most
// textCap characters.
func New(cacheDir, server string, textCap int) Writer {
	return Writer{cacheDir: cacheDir, server: server, textCap: textCap}
}

// save writes data to a new file named after kind with an extension from
// mimeType and returns its path.
func (w Writer) save(kind, mimeType string, data []byte) (string, error) {
	root := w.cacheDir
	if root == "" {
		root = os.TempDir()
	}
	dir := filepath.Join(root, "results", model.NormalizeName(w.server))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("creating result dir: %w", err)
	}
	ext := ".bin"
	if kind == "text" {
		ext = ".txt"
	}
	if exts, err := mime.ExtensionsByType(mimeType); err == nil && len(exts) > 0 {
		ext = exts[len(exts)-1]
		if mimeType == "image/jpeg" {
			ext = ".jpg"
		}
	}
	f, err := os.CreateTemp(dir, kind+"-*"+ext)
	if err != nil {
		return "", fmt.Errorf("creating result file: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return "", fmt.Errorf("writing %s: %w", f.Name(), err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("writing %s: %w", f.Name(), err)
	}
	return f.Name(), nil
}

// text keeps short text inline and writes long text to a file, leaving a
// summary naming the file.
func (w Writer) text(kind, s, mimeType, uri string) (Content, error) {
	c := Content{Kind: kind, MIMEType: mimeType, URI: uri, Size: len(s)}
	if len(s) <= maxInlineText {
		c.Text = textsafe.Sanitize(s)
		return c, nil
	}
	path, err := w.save("text", mimeType, []byte(s))
	if err != nil {
		return Content{}, err
	}
	c.Path = path
	c.Text = fmt.Sprintf("%s\n... [%d bytes; full text saved to %s]",
		textsafe.Sanitize(strings.ToValidUTF8(s[:2000], "")), len(s), path)
	return c, nil
}

// blob base64-decodes data to a file.
func (w Writer) blob(kind, b64, mimeType, uri string) (Content, error) {
	data, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	if err != nil {
		return Content{}, fmt.Errorf("server %s sent %s data that is not valid base64: %w", w.server, kind, err)
	}
	path, err := w.save(kind, mimeType, data)
	if err != nil {
		return Content{}, err
	}
	return Content{
		Kind: kind, MIMEType: mimeType, URI: uri, Path: path, Size: len(data),
		Text: fmt.Sprintf("[%s %s, %d bytes, saved to %s]", kind, mimeType, len(data), path),
	}, nil
}

// content converts one piece of tool or prompt content.
func (w Writer) content(c mcp.Content) (Content, error) {
	switch v := c.(type) {
	case mcp.TextContent:
		return w.text("text", v.Text, "", "")
	case *mcp.TextContent:
		return w.text("text", v.Text, "", "")
	case mcp.ImageContent:
		return w.blob("image", v.Data, v.MIMEType, "")
	case *mcp.ImageContent:
		return w.blob("image", v.Data, v.MIMEType, "")
	case mcp.AudioContent:
		return w.blob("audio", v.Data, v.MIMEType, "")
	case *mcp.AudioContent:
		return w.blob("audio", v.Data, v.MIMEType, "")
	case mcp.EmbeddedResource:
		return w.resource(v.Resource)
	case *mcp.EmbeddedResource:
		return w.resource(v.Resource)
	case mcp.ResourceLink:
		return w.link(v), nil
	case *mcp.ResourceLink:
		return w.link(*v), nil
	default:
		raw, _ := json.Marshal(c)
		return w.text("text", string(raw), "application/json", "")
	}
}

func (w Writer) link(v mcp.ResourceLink) Content {
	text := textsafe.Sanitize(v.Name)
	if v.Description != "" {
		text += ": " + textsafe.Truncate(textsafe.Sanitize(v.Description), w.textCap)
	}
	return Content{Kind: "resource_link", URI: v.URI, MIMEType: v.MIMEType, Text: text}
}

// resource converts embedded or read resource contents.
func (w Writer) resource(rc mcp.ResourceContents) (Content, error) {
	var c Content
	var err error
	switch v := rc.(type) {
	case mcp.TextResourceContents:
		c, err = w.text("resource", v.Text, v.MIMEType, v.URI)
	case *mcp.TextResourceContents:
		c, err = w.text("resource", v.Text, v.MIMEType, v.URI)
	case mcp.BlobResourceContents:
		c, err = w.blob("resource", v.Blob, v.MIMEType, v.URI)
	case *mcp.BlobResourceContents:
		c, err = w.blob("resource", v.Blob, v.MIMEType, v.URI)
	default:
		return Content{}, fmt.Errorf("server %s sent a resource of unknown form %T", w.server, rc)
	}
	return c, err
}

// Tool processes a tools/call result.
func (w Writer) Tool(r *mcp.CallToolResult) (ToolResult, error) {
	out := ToolResult{IsError: r.IsError, Content: make([]Content, 0, len(r.Content)), Sent: r}
	for _, c := range r.Content {
		pc, err := w.content(c)
		if err != nil {
			return ToolResult{}, err
		}
		out.Content = append(out.Content, pc)
	}
	switch {
	case len(r.RawStructuredContent) > 0:
		out.Structured = r.RawStructuredContent
	case r.StructuredContent != nil:
		raw, err := json.Marshal(r.StructuredContent)
		if err != nil {
			return ToolResult{}, fmt.Errorf("encoding structured content: %w", err)
		}
		out.Structured = raw
	}
	return out, nil
}

// Resource processes a resources/read result.
func (w Writer) Resource(r *mcp.ReadResourceResult) (ResourceResult, error) {
	out := ResourceResult{Contents: make([]Content, 0, len(r.Contents)), Sent: r}
	for _, rc := range r.Contents {
		c, err := w.resource(rc)
		if err != nil {
			return ResourceResult{}, err
		}
		out.Contents = append(out.Contents, c)
	}
	return out, nil
}

// Prompt processes a prompts/get result.
func (w Writer) Prompt(r *mcp.GetPromptResult) (PromptResult, error) {
	out := PromptResult{
		Description: textsafe.Truncate(textsafe.Sanitize(r.Description), w.textCap),
		Messages:    make([]Content, 0, len(r.Messages)),
		Sent:        r,
	}
	for _, m := range r.Messages {
		c, err := w.content(m.Content)
		if err != nil {
			return PromptResult{}, err
		}
		c.Role = string(m.Role)
		out.Messages = append(out.Messages, c)
	}
	return out, nil
}
