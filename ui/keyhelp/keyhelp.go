// Package keyhelp draws the keys a screen offers: the footer's short help
// and the ? screen's full one, every key shown however small the terminal.
package keyhelp

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"github.com/mcpdeck/mcpdeck/ui/styles"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// New returns a bubbles/help model drawn with our styles.
func New(st *styles.Styles) help.Model {
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

// Full renders every group of keys (via bubbles/help, one group per
// column) and wraps the columns to the width instead of dropping them, so a
// 60-column terminal still shows every key.
func Full(st *styles.Styles, titles []string, groups [][]key.Binding, width, height int) string {
	if out := helpColumns(st, titles, groups, width); lipgloss.Height(out) <= height {
		return out
	}
	// too short for columns: one wrapped paragraph per group, an entry never
	// split between two lines
	out := wrapEach(helpParagraphs(st, titles, groups, true), width)
	if lipgloss.Height(out) <= height {
		return out
	}
	// shorter still: the groups run on in one paragraph, each heading
	// marking where its group starts, and a description may go on to the
	// next line (its key stays with its first word): every key still shows
	return tuikit.Wrap(strings.Join(helpParagraphs(st, titles, groups, false), "  "), width)
}

// helpParagraphs is one paragraph per group of keys, headed by its title:
// "key desc · key desc". whole keeps each entry on one line; otherwise
// only a key and its description's first word are held together.
func helpParagraphs(st *styles.Styles, titles []string, groups [][]key.Binding, whole bool) []string {
	hold := func(s string) string { return strings.ReplaceAll(s, " ", "\u00a0") }
	var paras []string
	for i, g := range groups {
		var parts []string
		for _, b := range g {
			if !b.Enabled() {
				continue
			}
			desc := b.Help().Desc
			if whole {
				desc = hold(desc)
			} else if first, rest, ok := strings.Cut(desc, " "); ok {
				desc = first + " " + rest
			}
			parts = append(parts, st.Key.Render(b.Help().Key)+"\u00a0"+st.Muted.Render(desc))
		}
		p := strings.Join(parts, "\u00a0· ")
		if i < len(titles) {
			p = st.Heading.Render(hold(titles[i])+":") + " " + p
		}
		paras = append(paras, p)
	}
	return paras
}

// wrapEach wraps each paragraph to the width, one after the other.
func wrapEach(paras []string, width int) string {
	out := make([]string, len(paras))
	for i, p := range paras {
		out[i] = tuikit.Wrap(p, width)
	}
	return strings.Join(out, "\n")
}

func helpColumns(st *styles.Styles, titles []string, groups [][]key.Binding, width int) string {
	h := New(st)
	var blocks []string
	for i, g := range groups {
		b := h.FullHelpView([][]key.Binding{g})
		if i < len(titles) {
			b = st.Heading.Render(titles[i]) + "\n" + b
		}
		blocks = append(blocks, b)
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
