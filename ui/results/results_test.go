package results

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
)

// TestSavedFileNamedOnce: a blob saved to a file is named once, whether the
// engine's summary names it or not.
func TestSavedFileNamedOnce(t *testing.T) {
	for _, c := range []engine.Content{
		{Kind: "resource", URI: "demo://blob/1", MIMEType: "text/plain", Path: "/c/r/resource-1.txt", Size: 56, Text: "[resource text/plain, 56 bytes, saved to /c/r/resource-1.txt]"},
		{Kind: "image", MIMEType: "image/png", Path: "/c/r/image-1.png", Size: 9},
		{Kind: "text", Path: "/c/r/text-1.txt", Text: "abc\n... [900000 bytes; full text saved to /c/r/text-1.txt]"},
	} {
		got := strings.Join(contentLines([]engine.Content{c}), "\n")
		if n := strings.Count(got, c.Path); n != 1 {
			t.Errorf("%s named %d times:\n%s", c.Path, n, got)
		}
	}
}
