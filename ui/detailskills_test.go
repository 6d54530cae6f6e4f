package ui

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
)

// TestDetailSkillsTab: tab 7 lists the server's skills with file count,
// total size and description, a skill that cannot be loaded says why, and
// a hostile name is shown without its escape sequences.
func TestDetailSkillsTab(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		for i := range s.Servers {
			if s.Servers[i].Name == "notes" {
				s.Servers[i].Skills = []engine.Skill{
					{
						Name: "pdf-processing", Description: "Extract PDF text", URI: "skill://pdf-processing/SKILL.md",
						Files: []engine.SkillFile{{URI: "skill://pdf-processing/SKILL.md", Size: 1500}, {URI: "skill://pdf-processing/FORMS.md", Size: 600}},
					},
					{Name: "odd\x1b[31mred", URI: "skill://odd/SKILL.md", Problem: "the server lists no file sizes and digests for it"},
				}
			}
		}
		h := newHarness(t, newFakeEngine(s), 100, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("enter")
		h.wantView("Skills 2")
		h.keys("7")
		h.wantView("[Skills 2]", "pdf-processing  2 file(s), 2.1 KiB", "Extract PDF text",
			"oddred  0 file(s), 0 B", "cannot be loaded: the server lists no file sizes and digests")
		if strings.Contains(h.view(), "\x1b[31m") {
			t.Fatal("a skill name's escape sequence reached the screen")
		}
	})
}
