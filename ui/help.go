package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"github.com/mcpdeck/mcpdeck/ui/styles"
)

// newHelp returns a bubbles/help model drawn with our styles.
func newHelp(st *styles.Styles) help.Model {
	h := help.New()
	h.Styles.ShortKey = st.Key
	h.Styles.FullKey = st.Key
	h.Styles.ShortDesc = st.Muted
	h.Styles.FullDesc = st.Muted
	h.Styles.ShortSeparator = st.Muted
	h.Styles.FullSeparator = st.Muted
	h.Styles.Ellipsis = st.Muted
	return h
}

// fullHelp renders every group of keys (via bubbles/help, one group per
// column) and wraps the columns to the width instead of dropping them, so a
// 60-column terminal still shows every key.
func fullHelp(st *styles.Styles, groups [][]key.Binding, width, height int) string {
	if out := helpColumns(st, groups, width); lipgloss.Height(out) <= height {
		return out
	}
	// too short for columns: one flowing paragraph, wrapped
	var parts []string
	for _, g := range groups {
		for _, b := range g {
			if b.Enabled() {
				parts = append(parts, st.Key.Render(b.Help().Key)+" "+st.Muted.Render(b.Help().Desc))
			}
		}
	}
	return wordwrap(strings.Join(parts, " · "), width)
}

func helpColumns(st *styles.Styles, groups [][]key.Binding, width int) string {
	h := newHelp(st)
	var blocks []string
	for _, g := range groups {
		blocks = append(blocks, h.FullHelpView([][]key.Binding{g}))
	}
	var rows []string
	var row []string
	rowW := 0
	for _, b := range blocks {
		w := lipgloss.Width(b) + 4
		if len(row) > 0 && rowW+w > width {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
			row, rowW = nil, 0
		}
		row = append(row, lipgloss.NewStyle().PaddingRight(4).Render(b))
		rowW += w
	}
	if len(row) > 0 {
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
	}
	return strings.Join(rows, "\n\n")
}
