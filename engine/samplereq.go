package engine

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// maxSampleText bounds one message's text as shown to the person; the
// command still gets the request whole.
const maxSampleText = 64 << 10

// newSampleRequest turns a server's sampling params into what the person
// is shown: sanitized texts, media as "[image 12 KB png]", tools by name.
func newSampleRequest(server string, p mcp.CreateMessageParams) SampleRequest {
	r := SampleRequest{
		Server:         server,
		SystemPrompt:   sampleText(p.SystemPrompt),
		MaxTokens:      p.MaxTokens,
		Temperature:    p.Temperature,
		IncludeContext: textsafe.SanitizeLine(p.IncludeContext),
	}
	for _, s := range p.StopSequences {
		r.StopSequences = append(r.StopSequences, textsafe.SanitizeLine(s))
	}
	for _, t := range p.Tools {
		r.Tools = append(r.Tools, textsafe.SanitizeLine(t.Name))
	}
	r.Preferences = preferences(p.ModelPreferences)
	for _, m := range p.Messages {
		r.Messages = append(r.Messages, SampleMessage{Role: textsafe.SanitizeLine(string(m.Role)), Text: contentText(m.Content)})
	}
	if raw, err := json.Marshal(p); err == nil {
		r.Raw = raw
	}
	return r
}

// sampleText is a server's text, sanitized (newlines kept) and capped.
func sampleText(s string) string {
	if len(s) > maxSampleText {
		s = s[:maxSampleText] + "…"
	}
	return textsafe.Sanitize(s)
}

// contentText words one message's content: a block or a list of blocks.
func contentText(c any) string {
	if m, ok := c.(map[string]any); ok { // a request that skipped mcp-go's parsing
		if parsed, err := mcp.ParseContent(m); err == nil {
			c = parsed
		}
	}
	switch v := c.(type) {
	case []mcp.Content:
		parts := make([]string, 0, len(v))
		for _, b := range v {
			parts = append(parts, contentText(b))
		}
		return strings.Join(parts, "\n")
	case []any:
		parts := make([]string, 0, len(v))
		for _, b := range v {
			parts = append(parts, contentText(b))
		}
		return strings.Join(parts, "\n")
	case mcp.TextContent:
		return sampleText(v.Text)
	case *mcp.TextContent:
		return sampleText(v.Text)
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

// preferences words the model preferences in one line.
func preferences(p *mcp.ModelPreferences) string {
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
