package ui

import (
	"strings"
	"testing"
)

// statusRow is the status line of a frame: the row above the footer.
func statusRow(v string) string {
	rows := strings.Split(v, "\n")
	return rows[len(rows)-2]
}

// TestNoticesNeverHideMessages: on an 80-column screen the keychain
// notice, which stays all session, is cut so that the count of the other
// notices stays on screen; the message of an action replaces it in full,
// with the notices still counted beside it while they fit; a message too
// long for both is shown whole; the next key brings the notice back.
func TestNoticesNeverHideMessages(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Warnings = []string{
			"no keychain (org.freedesktop.secrets was not provided by any .service files): tokens stored in /home/me/.config/mcpdeck/credentials.json (0600)",
			"Config files are not watched (too many open files): use reload after editing them.",
		}
		h := newHarness(t, newFakeEngine(s), 80, 24)
		h.keys("esc") // the fixture's approval prompt
		row := statusRow(h.view())
		if !strings.HasPrefix(row, "⚠ no keychain (org.freedesktop.secrets") || !strings.HasSuffix(row, "… (+1 more: ? lists them)") {
			t.Fatalf("the notice hides that there is another: %q", row)
		}

		h.selectServer("notes")
		h.keys("r")
		if row := statusRow(h.view()); row != "reconnected notes · ⚠ 2 notices: ? lists them" {
			t.Errorf("after r: %q", row)
		}
		golden(t, "status_message_and_notices_80x24", h.view())

		h.keys("x") // not a project server: the key says why not
		if row := statusRow(h.view()); row != "reject: only project (.mcp.json) servers need approval" {
			t.Errorf("after x: %q", row)
		}
		h.keys("j")
		if row := statusRow(h.view()); !strings.HasPrefix(row, "⚠ no keychain") {
			t.Errorf("the notice did not come back: %q", row)
		}
	})
}
