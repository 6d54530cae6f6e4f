package samplereq

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestContentWordsEachKind: text is sanitized and capped, media told by
// size and type, tool blocks by name, a list of blocks line by line.
func TestContentWordsEachKind(t *testing.T) {
	for _, tc := range []struct {
		c    any
		want string
	}{
		{mcp.TextContent{Text: "hi\x1b[31m there"}, "hi there"},
		{mcp.ImageContent{Data: strings.Repeat("A", 16384), MIMEType: "image/png"}, "[image 12 KB png]"},
		{&mcp.AudioContent{Data: "AAAA", MIMEType: "audio/wav"}, "[audio 3 B wav]"},
		{mcp.ToolUseContent{Name: "search"}, "[tool use search]"},
		{[]mcp.Content{mcp.TextContent{Text: "a"}, mcp.TextContent{Text: "b"}}, "a\nb"},
		{map[string]any{"type": "text", "text": "raw"}, "raw"},
		{42, "[int content]"},
	} {
		if got := Content(tc.c); got != tc.want {
			t.Errorf("Content(%T) = %q, want %q", tc.c, got, tc.want)
		}
	}
	if got := Text(strings.Repeat("x", maxText+10)); len(got) > maxText+len("…") {
		t.Errorf("Text kept %d bytes of a longer text, want at most %d", len(got), maxText+len("…"))
	}
}

// TestParseReply: a JSON object is a whole result (role and model filled
// in), any other output the assistant's text, and an object without valid
// content an error.
func TestParseReply(t *testing.T) {
	res, err := parseReply([]byte(`{"content":{"type":"text","text":"yes"}}`))
	if err != nil || res.Role != mcp.RoleAssistant || res.Model != "command" {
		t.Fatalf("JSON reply: %+v, %v", res, err)
	}
	if c, ok := res.Content.(mcp.TextContent); !ok || c.Text != "yes" {
		t.Errorf("JSON reply content: %#v", res.Content)
	}
	res, err = parseReply([]byte("plain words"))
	if err != nil || res.StopReason != "endTurn" {
		t.Fatalf("text reply: %+v, %v", res, err)
	}
	if c, ok := res.Content.(mcp.TextContent); !ok || c.Text != "plain words" {
		t.Errorf("text reply content: %#v", res.Content)
	}
	if _, err := parseReply([]byte(`{"model":"m"}`)); err == nil {
		t.Error("an object without content was taken as a reply")
	}
	if got := Preferences(&mcp.ModelPreferences{Hints: []mcp.ModelHint{{Name: "claude"}}, SpeedPriority: 0.5}); got != "models like claude; speed 0.5" {
		t.Errorf("Preferences = %q", got)
	}
}
