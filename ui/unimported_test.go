package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/model/imports"
)

// TestHeaderSaysWhatClaudeCodeHasThatMcpdeckLacks: servers in
// ~/.claude.json that mcpdeck has not imported are counted in the header,
// with the import command when it fits, and the whole notice is under ?.
func TestHeaderSaysWhatClaudeCodeHasThatMcpdeckLacks(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		u := &imports.Unimported{File: "/home/me/.claude.json", Names: []string{"github", "linear"}}
		s.Unimported, s.Warnings = u, []string{u.Notice()}
		h := newHarness(t, newFakeEngine(s), 200, 30)
		h.keys("esc")
		first := strings.SplitN(h.view(), "\n", 2)[0]
		if !strings.HasSuffix(first, "↓ 2 servers in ~/.claude.json not imported: mcpdeck mcp import --from claude-code") {
			t.Errorf("the header does not say it:\n%s", first)
		}
		golden(t, "header_unimported_200", first)
		h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
		if first := strings.SplitN(h.view(), "\n", 2)[0]; !strings.Contains(first, "↓ 2 servers in ~/.claude.json not imported") || screenWidth(first) > 100 {
			t.Errorf("at 100 columns:\n%s", first)
		}
		h.keys("?")
		h.wantView("2 servers in ~/.claude.json not imported (github, linear): mcpdeck mcp import --from claude-code")
	})
}
