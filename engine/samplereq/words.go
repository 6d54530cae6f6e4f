// Package samplereq is what answering a server's sampling request needs
// besides the engine: the request worded for the person who decides
// (texts sanitized and capped, media by size and type, preferences in one
// line), and the sampling command that may answer it instead.
package samplereq

import (
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// maxText bounds one message's text as shown to the person; the
// command still gets the request whole.
const maxText = 64 << 10

// Text is a server's text, sanitized (newlines kept) and capped.
func Text(s string) string {
	if len(s) > maxText {
		s = s[:maxText] + "…"
	}
	return textsafe.Sanitize(s)
}

// Content words one message's content: a block or a list of blocks.
func Content(c any) string {
	if m, ok := c.(map[string]any); ok { // a request that skipped mcp-go's parsing
		if parsed, err := mcp.ParseContent(m); err == nil {
			c = parsed
		}
	}
	switch v := c.(type) {
	case []mcp.Content:
		parts := make([]string, 0, len(v))
		for _, b := range v {
			parts = append(parts, Content(b))
		}
		return strings.Join(parts, "\n")
	case []any:
		parts := make([]string, 0, len(v))
		for _, b := range v {
			parts = append(parts, Content(b))
		}
		return strings.Join(parts, "\n")
	case mcp.TextContent:
		return Text(v.Text)
	case *mcp.TextContent:
		return Text(v.Text)
	case mcp.ImageContent:
		return media("image", v.Data, v.MIMEType)
	case *mcp.ImageContent:
		return media("image", v.Data, v.MIMEType)
	case mcp.AudioContent:
		return media("audio", v.Data, v.MIMEType)
	case *mcp.AudioContent:
		return media("audio", v.Data, v.MIMEType)
	case mcp.ToolUseContent:
		return "[tool use " + textsafe.SanitizeLine(v.Name) + "]"
	case mcp.ToolResultContent:
		return "[tool result]"
	}
	return fmt.Sprintf("[%T content]", c)
}

// media words an image or audio block by its decoded size and type.
func media(kind, b64, mime string) string {
	size := uint64(len(b64) * 3 / 4)
	sub := mime
	if _, after, ok := strings.Cut(mime, "/"); ok {
		sub = after
	}
	return fmt.Sprintf("[%s %s %s]", kind, byteSize(size), textsafe.SanitizeLine(sub))
}

// byteSize words n bytes as "512 B", "12 KB", "3.4 MB" (1 KB = 1024 B).
func byteSize(n uint64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%d KB", (n+512)>>10)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

// Preferences words the model preferences in one line.
func Preferences(p *mcp.ModelPreferences) string {
	if p == nil {
		return ""
	}
	var parts []string
	if len(p.Hints) > 0 {
		names := make([]string, 0, len(p.Hints))
		for _, h := range p.Hints {
			names = append(names, textsafe.SanitizeLine(h.Name))
		}
		parts = append(parts, "models like "+strings.Join(names, ", "))
	}
	for _, pr := range []struct {
		name string
		v    float64
	}{{"cost", p.CostPriority}, {"speed", p.SpeedPriority}, {"intelligence", p.IntelligencePriority}} {
		if pr.v > 0 {
			parts = append(parts, fmt.Sprintf("%s %.1f", pr.name, pr.v))
		}
	}
	return strings.Join(parts, "; ")
}
