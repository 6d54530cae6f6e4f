package ui

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// unreadableSettings is a user settings.json broken mid-edit, as the
// engine publishes it on every server (ToolsDeniedBy) while its
// permission rules cannot be read.
var unreadableSettings = model.Problem{
	Scope: model.ScopeUser, File: "/home/me/.config/mcpdeck/settings.json", Line: 3, Col: 7,
	Message: "invalid JSON: invalid character 'o' after object key:value pair",
}

// TestUnreadableRulesLeadWithTheCause: while a settings file's permission
// rules cannot be read every tool is denied; the row says so and why
// instead of "~0 tokens", the overview and the Tools tab lead with the
// file, its line:column and problem and what mcpdeck does until it is
// fixed, and each tool's badge names the file, not a rule that does not
// exist.
func TestUnreadableRulesLeadWithTheCause(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Problems = []model.Problem{unreadableSettings}
		for i := range s.Servers {
			s.Servers[i].ToolsDeniedBy = []model.Problem{unreadableSettings}
			for j := range s.Servers[i].Tools {
				s.Servers[i].Tools[j].Denied = true
			}
		}
		h := newHarness(t, newFakeEngine(s), 120, 30)
		h.keys("esc")
		h.selectServer("notes")
		v := h.view()
		if strings.Contains(v, "tokens") {
			t.Errorf("the row counts tokens of tools that are all denied:\n%s", v)
		}
		h.wantView("notes       sdk    3 tools · 1 resource · 1 template · 1 prompt · tools denied: settings.json unreadable (3:7)")
		golden(t, "list_rules_unreadable", v)
		why := "/home/me/.config/mcpdeck/settings.json:3:7: invalid JSON: invalid character 'o' after object key:value pair — the permission rules there cannot be read, so every tool is denied until it is fixed"
		h.keys("enter")
		if flat := strings.Join(strings.Fields(h.view()), " "); !strings.Contains(flat, strings.Join(strings.Fields(why), " ")) {
			t.Errorf("the overview does not say why:\n%s", h.view())
		}
		h.keys("tab")
		v = h.view()
		if flat := strings.Join(strings.Fields(v), " "); !strings.Contains(flat, strings.Join(strings.Fields(why), " ")) {
			t.Errorf("the Tools tab does not lead with why:\n%s", v)
		}
		if strings.Contains(v, "denied by permissions") {
			t.Errorf("a tool reads as denied by a rule:\n%s", v)
		}
		h.wantView("add_note  [destructive, denied: settings.json unreadable (3:7)]")
		golden(t, "detail_tools_rules_unreadable", v)
	})
}
