package ui

import (
	"context"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/mcpdeck/mcpdeck/ui/addserver"
	"github.com/mcpdeck/mcpdeck/ui/keyhelp"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

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

// env is what the root's own modals need: the Env every modal is built
// with, the engine, the browser opener, the clipboard and the registry.
type env struct {
	*tuikit.Env
	eng     Engine
	openURL func(ctx context.Context, url string) error
	// copyText puts text on the clipboard.
	copyText func(text string) error
	reg      addserver.Registry // nil: + is not available
}

// helpModal is the full help (?), followed by every notice (config
// problems and warnings) the status line could only count.
type helpModal struct {
	env     *env
	keys    *KeyMap
	notices []string
	// prompt are the keys of the prompt under the help, when it was asked
	// for inside one: they come first, as "This prompt".
	prompt []key.Binding
}

// closeKey closes the help: back, and the help key again (so the help
// key is this modal's own, and opens no help over the help).
func (h *helpModal) closeKey() key.Binding {
	k := h.keys
	b := k.Back.Help()
	return key.NewBinding(key.WithKeys(append(k.Back.Keys(), k.Help.Keys()...)...), key.WithHelp(b.Key, b.Desc))
}

func (h *helpModal) Help() []key.Binding { return []key.Binding{h.closeKey(), h.keys.Quit} }

func (h *helpModal) TakesText() bool { return false }

func (h *helpModal) Answers() any { return nil }

func (h *helpModal) Update(msg tea.Msg) (tuikit.Modal, tea.Cmd) {
	if km, ok := msg.(tea.KeyMsg); ok && key.Matches(km, h.closeKey()) {
		return nil, nil
	}
	return h, nil
}

func (h *helpModal) View(width, height int) string {
	k := h.keys
	titles, groups := k.HelpGroupTitles(), k.FullHelp()
	if len(h.prompt) > 0 && !tuikit.Binds(h.prompt, k.Quit) {
		groups = quitNotHere(groups, k.Quit)
	}
	if len(h.prompt) > 0 {
		titles, groups = append([]string{"This prompt"}, titles...), append([][]key.Binding{h.prompt}, groups...)
	}
	keys := keyhelp.Full(h.env.St, titles, groups, width, height-2)
	if lipgloss.Height(keys) > height-2 { // a short terminal: every key matters more than the title
		return keyhelp.Full(h.env.St, titles, groups, width, height)
	}
	out := h.env.St.Heading.Render("Keys") + "\n\n" + keys
	if len(h.notices) > 0 {
		var b strings.Builder
		b.WriteString("\n\n" + h.env.St.Heading.Render("Notices"))
		for _, n := range h.notices {
			b.WriteString("\n" + tuikit.Wrap("• "+tuikit.Clean(n), max(width-2, 10)))
		}
		out += b.String()
	}
	return out
}

// quitNotHere is the help's groups with q marked as not quitting: the help
// was asked for over a prompt that keeps q (quitOffered).
func quitNotHere(groups [][]key.Binding, quit key.Binding) [][]key.Binding {
	out := make([][]key.Binding, len(groups))
	for i, g := range groups {
		out[i] = slices.Clone(g)
		for j, b := range out[i] {
			if b.Help() == quit.Help() {
				out[i][j].SetHelp(b.Help().Key, b.Help().Desc+" (not from this prompt)")
			}
		}
	}
	return out
}
