package config

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestEditorTransportNotDefinable: a file cannot define an editor's
// server (its token belongs in the editor's lock file, not a repository's
// .mcp.json); the definition has a problem naming the type field.
func TestEditorTransportNotDefinable(t *testing.T) {
	for _, ti := range model.Transports() {
		if !ti.Editor {
			continue
		}
		f := newFixture(t)
		f.write(f.projectFile(), servers("ed", `{"type":"`+string(ti.Name)+`","url":"`+ti.Schemes[0]+`://127.0.0.1:9"}`))
		s, ok := f.load().Server("ed")
		if !ok || len(s.Problems) != 1 || s.Problems[0].Field != "type" || !strings.Contains(s.Problems[0].Message, "lock file") {
			t.Errorf("%s definition: problems %v, want one on type naming the lock file", ti.Name, s.Problems)
		}
	}
}
