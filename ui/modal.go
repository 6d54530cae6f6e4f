package ui

import (
	"context"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/mcpdeck/mcpdeck/ui/styles"
)

// modal is a screen drawn over the list or detail view: a picker, a form, a
// running call, a result, a prompt. Modals stack; the top one gets the keys,
// every one gets the other messages (results of their own Cmds).
type modal interface {
	// Update returns the modal that replaces this one (nil closes it).
	Update(msg tea.Msg) (modal, tea.Cmd)
	View(width, height int) string
	// Help lists the keys valid in this modal, for the footer.
	Help() []key.Binding
}

// component is a screen under the modals: the server list and the detail
// view. The root model sizes them, gives them the keys it does not handle
// itself, and draws them.
type component interface {
	Update(msg tea.Msg) tea.Cmd
	View() string
	SetSize(width, height int)
}

var (
	_ component = (*serverList)(nil)
	_ component = (*detailView)(nil)
)

// env is what modals need from the root model.
type env struct {
	ctx     context.Context
	eng     Engine
	st      *styles.Styles
	keys    *KeyMap
	openURL func(ctx context.Context, url string) error
	reg     Registry // nil: + is not available
	width   int
	height  int
	lastID  int
}

func (e *env) nextID() int {
	e.lastID++
	return e.lastID
}

// bodySize is the area a modal may draw in (the screen minus header and footer).
func (e *env) bodySize() (int, int) { return e.width, max(e.height-3, 1) }

// helpModal is the full help (?), followed by every notice (config
// problems and warnings) the status line could only count.
type helpModal struct {
	env     *env
	notices []string
	// prompt are the keys of the prompt under the help, when it was asked
	// for inside one: they come first, as "This prompt".
	prompt []key.Binding
}

func (h *helpModal) Help() []key.Binding { return []key.Binding{h.env.keys.Back, h.env.keys.Quit} }

func (h *helpModal) Update(msg tea.Msg) (modal, tea.Cmd) {
	if km, ok := msg.(tea.KeyMsg); ok && (key.Matches(km, h.env.keys.Back) || key.Matches(km, h.env.keys.Help)) {
		return nil, nil
	}
	return h, nil
}

func (h *helpModal) View(width, height int) string {
	k := h.env.keys
	titles, groups := k.HelpGroupTitles(), k.FullHelp()
	if len(h.prompt) > 0 {
		titles, groups = append([]string{"This prompt"}, titles...), append([][]key.Binding{h.prompt}, groups...)
	}
	keys := fullHelp(h.env.st, titles, groups, width, height-2)
	if lipgloss.Height(keys) > height-2 { // a short terminal: every key matters more than the title
		return fullHelp(h.env.st, titles, groups, width, height)
	}
	out := h.env.st.Heading.Render("Keys") + "\n\n" + keys
	if len(h.notices) > 0 {
		var b strings.Builder
		b.WriteString("\n\n" + h.env.st.Heading.Render("Notices"))
		for _, n := range h.notices {
			b.WriteString("\n" + wordwrap("• "+clean(n), max(width-2, 10)))
		}
		out += b.String()
	}
	return out
}

// panel draws lines in a bordered box that fits width×height: lines are
// wrapped to the width, and when they are too many the middle is cut (the
// first lines say what is asked, the last ones how to answer).
func panel(st *styles.Styles, lines []string, width, height int) string {
	inner := max(width-4, 10)
	var wrapped []string
	for _, l := range lines {
		wrapped = append(wrapped, strings.Split(wordwrap(l, inner), "\n")...)
	}
	if room := height - 2; len(wrapped) > room {
		dense := wrapped[:0:0]
		for _, l := range wrapped {
			if strings.TrimSpace(l) != "" {
				dense = append(dense, l)
			}
		}
		wrapped = dense
	}
	if room := height - 2; len(wrapped) > room && room >= 3 {
		head := room / 2
		tail := room - head - 1
		cut := append(append(wrapped[:head:head], st.Muted.Render("…")), wrapped[len(wrapped)-tail:]...)
		wrapped = cut
	}
	return st.Panel.Width(max(width-2, 10)).Render(strings.Join(wrapped, "\n"))
}
