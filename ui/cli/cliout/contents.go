package cliout

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// PrintContents prints processed content: text as is (control
// characters stripped), files and links as one bracketed line each.
func PrintContents(w io.Writer, cs []engine.Content) error {
	for _, c := range cs {
		prefix := ""
		if c.Role != "" {
			prefix = c.Role + ": "
		}
		var line string
		switch {
		case c.Path != "" && c.Text != "":
			line = c.Text // the engine's summary names the file
		case c.Path != "":
			line = fmt.Sprintf("[%s %s, %d bytes, saved to %s]", c.Kind, c.MIMEType, c.Size, c.Path)
		case c.Kind == "resource_link":
			line = fmt.Sprintf("[link %s]", c.URI)
			if c.Text != "" {
				line += " " + c.Text
			}
		case c.Kind == "resource" && c.URI != "":
			line = fmt.Sprintf("[resource %s]\n%s", c.URI, c.Text)
		default:
			line = c.Text
		}
		if _, err := fmt.Fprintln(w, prefix+textsafe.Sanitize(line)); err != nil {
			return err
		}
	}
	return nil
}

func HasText(cs []engine.Content) bool {
	for _, c := range cs {
		if strings.TrimSpace(c.Text) != "" {
			return true
		}
	}
	return false
}
