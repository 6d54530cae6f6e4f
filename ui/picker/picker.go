// Package picker is the modal that chooses one of a server's tools,
// resources or prompts, filtered with the TUI's one filter.
package picker

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/filterbox"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// Item is one choice of a picker.
type Item struct{ Label, Desc string }

// Modal chooses a tool, resource or prompt; "/" filters the choices
// with the TUI's one filter (filterbox.Box).
type Modal struct {
	env    *tuikit.Env
	title  string
	items  []Item
	cursor int // position among the shown items
	offset int
	pick   func(i int) (tuikit.Modal, tea.Cmd) // i indexes items
	filter filterbox.Box
	shown  []int // items matching the filter, nil: all
}

// New is a picker of items in e; pick receives the chosen item's
// index in items.
func New(e *tuikit.Env, title string, items []Item, pick func(i int) (tuikit.Modal, tea.Cmd)) *Modal {
	return &Modal{env: e, title: title, items: items, pick: pick, filter: filterbox.New(e.St, e.Keys, "filter by name or description")}
}

// TakesText: the filter is typed.
func (p *Modal) TakesText() bool { return p.filter.Active() }

func (p *Modal) Answers() any { return nil }

func (p *Modal) Help() []key.Binding {
	k := p.env.Keys
	if p.filter.Active() {
		return []key.Binding{k.FilterKeep, k.FilterClear}
	}
	return []key.Binding{k.Up, k.Down, k.Open, k.Filter, k.Back, k.Quit}
}

func (p *Modal) count() int {
	if p.shown != nil {
		return len(p.shown)
	}
	return len(p.items)
}

func (p *Modal) index(pos int) int {
	if p.shown != nil {
		return p.shown[pos]
	}
	return pos
}

// nothingPicked is enter on a picker whose filter shows nothing: the
// status line says so, as for every key with nothing selected.
type nothingPicked string

func (n nothingPicked) Report() (string, bool) {
	return string(n) + ": nothing selected (nothing matches the filter)", true
}

// refilter recomputes the choices the filter shows, best first, and puts
// the cursor on the first.
func (p *Modal) refilter() {
	p.shown = p.filter.Pick(len(p.items), func(i int) []string { return []string{p.items[i].Label, p.items[i].Desc} })
	p.cursor, p.offset = 0, 0
}

func (p *Modal) Update(msg tea.Msg) (tuikit.Modal, tea.Cmd) {
	if p.filter.Active() {
		changed, used, cmd := p.filter.Update(msg)
		if changed {
			p.refilter()
		}
		if used {
			return p, cmd
		}
	}
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	k := p.env.Keys
	_, h := p.env.BodySize()
	per := max((h-2)/2, 1)
	delta, scroll := k.ScrollBy(km, per)
	switch {
	case key.Matches(km, k.Filter):
		return p, p.filter.Start()
	case key.Matches(km, k.Back) && p.filter.Shown():
		p.filter.Clear()
		p.refilter()
		return p, nil
	case key.Matches(km, k.Back):
		return nil, nil
	case key.Matches(km, k.Open):
		if p.count() == 0 {
			return p, func() tea.Msg { return nothingPicked(p.title) }
		}
		return p.pick(p.index(p.cursor))
	case scroll:
		p.cursor += delta
	}
	p.cursor = max(0, min(p.cursor, p.count()-1))
	if p.cursor < p.offset {
		p.offset = p.cursor
	}
	if p.cursor >= p.offset+per {
		p.offset = p.cursor - per + 1
	}
	return p, nil
}

func (p *Modal) View(width, height int) string {
	st := p.env.St
	var b strings.Builder
	b.WriteString(st.Heading.Render(textsafe.SanitizeLine(p.title)))
	if p.filter.Shown() {
		b.WriteString("\n" + p.filter.View())
		height--
	}
	if p.count() == 0 {
		b.WriteString("\n" + st.Muted.Render("nothing matches the filter"))
		return b.String()
	}
	per := max((height-2)/2, 1)
	for pos := p.offset; pos < min(p.offset+per, p.count()); pos++ {
		item := p.items[p.index(pos)]
		it := Item{Label: textsafe.SanitizeLine(item.Label), Desc: textsafe.SanitizeLine(tuikit.FirstLine(item.Desc))}
		b.WriteString("\n")
		if pos == p.cursor {
			b.WriteString("› " + st.Selected.Render(it.Label))
		} else {
			b.WriteString("  " + it.Label)
		}
		b.WriteString("\n    " + st.Muted.Render(tuikit.FirstLine(it.Desc)))
	}
	return b.String()
}
