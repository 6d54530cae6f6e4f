package resultfile

import (
	"encoding/base64"
	"os"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestProcessLargeTextGoesToFile(t *testing.T) {
	w := New(t.TempDir(), "srv", 2048)
	big := strings.Repeat("x", maxInlineText+1)
	res, err := w.Tool(&mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(big), mcp.NewTextContent("small\u202e")}})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Content[0]
	if c.Path == "" || c.Size != len(big) || !strings.Contains(c.Text, c.Path) || len(c.Text) > 3000 {
		t.Fatalf("large text not summarised: path=%q size=%d textlen=%d", c.Path, c.Size, len(c.Text))
	}
	data, err := os.ReadFile(c.Path)
	if err != nil || string(data) != big {
		t.Fatalf("file content wrong: %v (%d bytes)", err, len(data))
	}
	if res.Content[1].Text != "small" || res.Content[1].Path != "" {
		t.Errorf("small text = %+v, want inline and sanitized", res.Content[1])
	}
}

func TestProcessImageAudioBlobToFiles(t *testing.T) {
	w := New(t.TempDir(), "srv", 2048)
	png := []byte("\x89PNG\r\n\x1a\nfake")
	enc := base64.StdEncoding.EncodeToString(png)
	res, err := w.Tool(&mcp.CallToolResult{
		Content: []mcp.Content{
			mcp.NewImageContent(enc, "image/png"),
			mcp.NewAudioContent(enc, "audio/wav"),
			mcp.NewEmbeddedResource(mcp.BlobResourceContents{URI: "file:///b", MIMEType: "application/octet-stream", Blob: enc}),
		},
		StructuredContent: map[string]any{"ok": true},
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, kind := range []string{"image", "audio", "resource"} {
		c := res.Content[i]
		if c.Kind != kind || c.Path == "" || c.Size != len(png) {
			t.Fatalf("content %d = %+v", i, c)
		}
		data, err := os.ReadFile(c.Path)
		if err != nil || string(data) != string(png) {
			t.Fatalf("%s file: %v", kind, err)
		}
	}
	if !strings.HasSuffix(res.Content[0].Path, ".png") {
		t.Errorf("image path %s lacks .png", res.Content[0].Path)
	}
	if string(res.Structured) != `{"ok":true}` {
		t.Errorf("structured = %s", res.Structured)
	}
	if _, err := w.Tool(&mcp.CallToolResult{Content: []mcp.Content{mcp.NewImageContent("!!!", "image/png")}}); err == nil {
		t.Error("invalid base64 accepted")
	}
}

func TestProcessResourceAndPrompt(t *testing.T) {
	w := New(t.TempDir(), "srv", 2048)
	rr, err := w.Resource(&mcp.ReadResourceResult{Contents: []mcp.ResourceContents{
		mcp.TextResourceContents{URI: "file:///a", MIMEType: "text/plain", Text: "hi"},
	}})
	if err != nil || rr.Contents[0].Text != "hi" || rr.Contents[0].URI != "file:///a" {
		t.Fatalf("resource = %+v %v", rr, err)
	}
	pr, err := w.Prompt(&mcp.GetPromptResult{Description: "d", Messages: []mcp.PromptMessage{
		mcp.NewPromptMessage(mcp.RoleAssistant, mcp.NewTextContent("x")),
	}})
	if err != nil || pr.Messages[0].Role != "assistant" || pr.Description != "d" {
		t.Fatalf("prompt = %+v %v", pr, err)
	}
}
