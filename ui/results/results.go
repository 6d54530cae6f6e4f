// Package results draws what a server answered as lines for a modal: a
// tool's result, a resource's contents and a prompt's messages.
package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// contentLines renders processed content: text as is, binary and large
// results as the path of the file the engine saved them to.
func contentLines(cs []engine.Content) []string {
	var out []string
	for i, c := range cs {
		if i > 0 {
			out = append(out, "")
		}
		if c.Role != "" {
			out = append(out, "["+c.Role+"]")
		}
		head := ""
		switch c.Kind {
		case "text":
		case "image", "audio":
			head = fmt.Sprintf("%s %s, %s", c.Kind, textsafe.SanitizeLine(c.MIMEType), humanize.Bytes(uint64(max(c.Size, 0))))
		default:
			head = textsafe.SanitizeLine(tuikit.JoinNonEmpty(" ", c.Kind, c.URI, c.MIMEType))
		}
		if head != "" {
			out = append(out, "["+head+"]")
		}
		if c.Path != "" && !strings.Contains(c.Text, c.Path) { // the engine's summary may name the file already
			out = append(out, "saved to "+textsafe.SanitizeLine(c.Path))
		}
		if c.Text != "" {
			out = append(out, strings.Split(tuikit.Clean(c.Text), "\n")...)
		}
	}
	return out
}

// ToolResult renders a tool result: content, then structured content
// pretty-printed.
func ToolResult(r engine.ToolResult) []string {
	out := contentLines(r.Content)
	if len(r.Structured) > 0 {
		var buf bytes.Buffer
		if err := json.Indent(&buf, r.Structured, "", "  "); err == nil {
			if len(out) > 0 {
				out = append(out, "")
			}
			out = append(out, "structured content:")
			out = append(out, strings.Split(string(textsafe.EscapeJSON(buf.Bytes())), "\n")...) // \u202e… shown, not obeyed
		}
	}
	if len(out) == 0 {
		out = []string{"(empty result)"}
	}
	return out
}

// Resource renders a resources/read result.
func Resource(r engine.ResourceResult) []string {
	out := contentLines(r.Contents)
	if len(out) == 0 {
		out = []string{"(empty resource)"}
	}
	return out
}

// Prompt renders a prompts/get result.
func Prompt(r engine.PromptResult) []string {
	var out []string
	if r.Description != "" {
		out = append(out, tuikit.Clean(r.Description), "")
	}
	out = append(out, contentLines(r.Messages)...)
	if len(out) == 0 {
		out = []string{"(empty prompt)"}
	}
	return out
}
