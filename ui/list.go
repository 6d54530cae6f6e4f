package ui

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/filterbox"
	"github.com/mcpdeck/mcpdeck/ui/status"
	"github.com/mcpdeck/mcpdeck/ui/styles"
	"github.com/mcpdeck/mcpdeck/ui/tokencosts"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// scopeOrder is the order of the list's groups.
var scopeOrder = []model.Scope{
	model.ScopeEnterprise, model.ScopeDynamic, model.ScopeLocal, model.ScopeProject,
	model.ScopeUser, model.ScopePlugin, model.ScopeConnector,
}

// listRow is a group heading (idx < 0), a line of a scope's unreadable
// file (idx < 0, text set) or a server (index into servers).
type listRow struct {
	scope model.Scope
	idx   int
	text  string
}

// serverList is the main screen: servers grouped by scope, filterable. It
// renders only the rows that fit, so hundreds of servers cost the same as ten.
type serverList struct {
	st    *styles.Styles
	keys  *tuikit.Keys
	hints status.Hints // the keys status lines suggest (statusHints)
	now   func() time.Time

	servers []engine.ServerSnapshot
	// unreadable are the problems of scopes' files whose servers could not
	// be read: each is drawn as its scope's heading, wrapped, never cut.
	unreadable []model.Problem
	rows       []listRow
	cursor     int // index into rows; always a server row, or -1 when empty
	offset     int // first visible row
	width      int
	height     int
	nameW      int

	filter filterbox.Box
	costs  *tokencosts.Costs // what each server's tools cost in a model's context (ui/tokencosts)
}

func newServerList(st *styles.Styles, keys *tuikit.Keys, now func() time.Time, hints status.Hints) serverList {
	return serverList{st: st, keys: keys, hints: hints, now: now, cursor: -1, filter: filterbox.New(st, keys, "filter by name")}
}

// SetSize sets the list's area (rows of servers, headings included).
func (l *serverList) SetSize(w, h int) {
	l.width, l.height = w, max(h, 1)
	l.filter.SetWidth(w)
	l.rebuild(l.Selected()) // the unreadable files' rows wrap at the width
}

// SetServers replaces the servers and the config file problems, keeping the
// cursor on the same server.
func (l *serverList) SetServers(servers []engine.ServerSnapshot, problems []model.Problem) {
	sel := l.Selected()
	l.servers = servers
	l.unreadable = status.Unreadable(problems)
	l.rebuild(sel)
}

// Selected returns the server under the cursor.
func (l *serverList) Selected() *engine.ServerSnapshot {
	if l.cursor < 0 || l.cursor >= len(l.rows) {
		return nil
	}
	return &l.servers[l.rows[l.cursor].idx]
}

func (l *serverList) rebuild(sel *engine.ServerSnapshot) {
	selName := ""
	if sel != nil {
		selName = sel.Name
	}
	buckets := make(map[model.Scope][]int, len(scopeOrder))
	l.nameW = 4
	for i := range l.servers {
		s := &l.servers[i]
		if !l.filter.Matches(s.Name) {
			continue
		}
		buckets[s.Scope] = append(buckets[s.Scope], i)
		l.nameW = max(l.nameW, ansi.StringWidth(textsafe.SanitizeLine(s.Name)))
	}
	l.nameW = min(l.nameW, 28)
	l.rows = l.rows[:0]
	l.cursor = -1
	for _, sc := range scopeOrder {
		idx := buckets[sc]
		l.heading(sc, len(idx) > 0)
		for _, i := range idx {
			if l.servers[i].Name == selName {
				l.cursor = len(l.rows)
			}
			l.rows = append(l.rows, listRow{scope: sc, idx: i})
		}
	}
	if l.cursor < 0 {
		l.move(0)
	}
	l.ensureVisible()
}

// heading adds the rows that head scope's group: the line of each of its
// unreadable files, wrapped to the width, else its name when it has
// servers.
func (l *serverList) heading(sc model.Scope, servers bool) {
	found := false
	for _, p := range l.unreadable {
		if p.Scope != sc {
			continue
		}
		found = true
		// continued under the text after "project — ", not under the servers
		indent := ansi.StringWidth(sc.String() + " — ")
		text := status.UnreadableRow(p)
		if l.width-indent >= 20 {
			text = tuikit.Wrap(text, l.width-indent)
		}
		for i, line := range strings.Split(text, "\n") {
			if i > 0 {
				line = strings.Repeat(" ", indent) + line
			}
			l.rows = append(l.rows, listRow{scope: sc, idx: -1, text: line})
		}
	}
	if !found && servers {
		l.rows = append(l.rows, listRow{scope: sc, idx: -1})
	}
}

// moveTo puts the cursor on the server row at or after (dir>=0) / before row i.
func (l *serverList) moveTo(i, dir int) {
	if len(l.rows) == 0 {
		l.cursor = -1
		return
	}
	i = min(max(i, 0), len(l.rows)-1)
	for j := i; j >= 0 && j < len(l.rows); j += dir {
		if l.rows[j].idx >= 0 {
			l.cursor = j
			l.ensureVisible()
			return
		}
		if dir == 0 {
			dir = 1
		}
	}
	// nothing in that direction: search the other way
	for j := i; j >= 0 && j < len(l.rows); j -= dir {
		if l.rows[j].idx >= 0 {
			l.cursor = j
			l.ensureVisible()
			return
		}
	}
}

func (l *serverList) move(delta int) {
	dir := 1
	if delta < 0 {
		dir = -1
	}
	if l.cursor < 0 {
		l.moveTo(0, 1)
		return
	}
	l.moveTo(l.cursor+delta, dir)
}

func (l *serverList) ensureVisible() {
	if l.cursor < 0 {
		l.offset = 0
		return
	}
	h := l.height
	top := l.cursor
	for top > 0 && l.rows[top-1].idx < 0 && l.cursor-top < h-1 { // keep the group heading in view, all its lines
		top--
	}
	if top < l.offset {
		l.offset = top
	}
	if l.cursor >= l.offset+h {
		l.offset = l.cursor - h + 1
	}
	l.offset = max(0, min(l.offset, len(l.rows)-h))
}

// Update handles movement, and the filter while it is typed.
func (l *serverList) Update(msg tea.Msg) tea.Cmd {
	if l.filter.Active() {
		changed, used, cmd := l.filter.Update(msg)
		if changed {
			l.rebuild(l.Selected())
		}
		if used {
			return cmd
		}
	}
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	k := l.keys
	delta, scroll := k.ScrollBy(km, max(l.height-1, 1))
	if scroll {
		l.move(delta)
	}
	return nil
}

// clearFilter drops a kept filter (esc).
func (l *serverList) clearFilter() {
	if l.filter.Shown() {
		l.filter.Clear()
		l.rebuild(l.Selected())
	}
}

// emptyView is the list without a server to show: the unreadable files'
// lines, and what is missing; a broken file is not "no servers configured".
func (l *serverList) emptyView(h int) string {
	var lines []string
	for _, r := range l.rows[:min(len(l.rows), max(h-1, 0))] {
		lines = append(lines, l.st.Bad.Render(r.text))
	}
	switch {
	case l.filter.Shown():
		lines = append(lines, l.st.Muted.Render("no server matches the filter"))
	case len(l.rows) == 0:
		lines = append(lines, l.st.Muted.Render("no MCP servers configured — add one with `mcpdeck mcp add`"))
	}
	return strings.Join(lines, "\n")
}

// View renders the visible rows (and the filter line when in use).
// visible is the range of rows on screen, [off, end).
func (l *serverList) visible() (off, end int) {
	h := l.height
	if l.filter.Shown() {
		h--
	}
	off = l.offset
	if h < l.height { // the filter line took one row
		off = max(0, min(off, len(l.rows)-h))
		if l.cursor >= off+h {
			off = l.cursor - h + 1
		}
	}
	return off, min(off+h, len(l.rows))
}

// countsDown reports whether a row on screen counts down to a retry.
func (l *serverList) countsDown() bool {
	if l.cursor < 0 {
		return false
	}
	off, end := l.visible()
	for _, r := range l.rows[off:end] {
		if r.idx >= 0 && status.RetryWaits(&l.servers[r.idx]) {
			return true
		}
	}
	return false
}

func (l *serverList) View() string {
	var b strings.Builder
	h := l.height
	if l.filter.Shown() {
		b.WriteString(l.filter.View())
		b.WriteByte('\n')
		h--
	}
	if l.cursor < 0 {
		return b.String() + l.emptyView(h)
	}
	off, end := l.visible()
	for i := off; i < end; i++ {
		if i > off {
			b.WriteByte('\n')
		}
		r := l.rows[i]
		switch {
		case r.text != "":
			b.WriteString(l.st.Bad.Render(r.text))
			continue
		case r.idx < 0:
			b.WriteString(l.st.Heading.Render(r.scope.String()))
			continue
		}
		b.WriteString(l.renderRow(&l.servers[r.idx], i == l.cursor))
	}
	return b.String()
}
