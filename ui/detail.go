package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/filterbox"
	"github.com/mcpdeck/mcpdeck/ui/status"
	"github.com/mcpdeck/mcpdeck/ui/styles"
	"github.com/mcpdeck/mcpdeck/ui/tokencosts"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// detailTab is one tab of the detail view.
type detailTab int

const (
	tabOverview detailTab = iota
	tabTools
	tabResources
	tabPrompts
	tabStderr
	tabInstructions
	tabSkills
	tabLogs
	tabTraffic
	numTabs
)

var tabNames = [numTabs]string{"Overview", "Tools", "Resources", "Prompts", "Stderr", "Instructions", "Skills", "Logs", "Traffic"}

// detailView shows one server: overview (config, source, history, errors,
// why it is not running), its tools, resources, prompts, stderr,
// instructions and skills (as listed: a skill's files are read only when
// the person loads it, with `mcpdeck skill`), its log messages and its
// JSON-RPC traffic. Text tabs scroll by line; list tabs and the traffic
// tab have a cursor.
type detailView struct {
	st   *styles.Styles
	keys *tuikit.Keys
	now  func() time.Time

	srv    engine.ServerSnapshot
	tab    detailTab
	width  int
	height int
	offset [numTabs]int
	cursor [numTabs]int
	follow bool // stderr tab stays at the bottom as lines arrive
	// followFrames keeps the traffic tab's cursor on the newest frame as
	// frames arrive, until the person moves it up.
	followFrames bool
	costs        *tokencosts.Costs // the Context line of the overview (ui/tokencosts)

	overview []string // cached overview lines, rebuilt on change
	stderr   []string // the stderr tail, cleaned
	logLevel string   // the Logs tab shows messages at or above it (L cycles)

	filter filterbox.Box // "/" on the tools, resources and prompts tabs
	shown  []int         // the current tab's items matching the filter; nil: all
}

func newDetailView(st *styles.Styles, keys *tuikit.Keys, now func() time.Time, s engine.ServerSnapshot) *detailView {
	d := &detailView{st: st, keys: keys, now: now, follow: true, followFrames: true, filter: filterbox.New(st, keys, "filter by name or description")}
	d.SetServer(s)
	return d
}

// SetSize sets the area of the view.
func (d *detailView) SetSize(w, h int) {
	d.width, d.height = w, h
	d.overview = nil
	d.wrapStderr()
	d.clamp()
}

// SetServer replaces the shown server with its newer snapshot.
func (d *detailView) SetServer(s engine.ServerSnapshot) {
	d.srv = s
	d.overview = nil
	d.wrapStderr()
	d.refilter()
	d.followTraffic()
	d.clamp()
}

// wrapStderr cleans and wraps the stderr tail (a long line is read in full,
// not cut at the edge) and keeps the view at the bottom while following.
func (d *detailView) wrapStderr() {
	d.stderr = d.stderr[:0]
	for _, l := range d.srv.StderrTail {
		d.stderr = append(d.stderr, wrapLines(tuikit.Clean(l), d.width)...)
	}
	if d.follow {
		d.offset[tabStderr] = len(d.stderr)
	}
}

// bodyHeight is the number of rows below the title and tab bar.
func (d *detailView) bodyHeight() int { return max(d.height-2, 1) }

func (d *detailView) itemCount(t detailTab) int {
	switch t {
	case tabTools:
		return len(d.srv.Tools)
	case tabResources:
		return len(d.srv.Resources) + len(d.srv.Templates)
	case tabPrompts:
		return len(d.srv.Prompts)
	case tabSkills:
		return len(d.srv.Skills)
	case tabTraffic:
		return len(d.srv.Traffic)
	case tabOverview, tabStderr, tabInstructions, tabLogs, numTabs:
	}
	return 0
}

func isListTab(t detailTab) bool {
	return t == tabTools || t == tabResources || t == tabPrompts || t == tabSkills
}

// hasCursor reports whether tab t moves a cursor over items (the list
// tabs, two lines an item, and the traffic tab, one line a frame) rather
// than scrolling text.
func hasCursor(t detailTab) bool { return isListTab(t) || t == tabTraffic }

// itemsPerPage is how many items of tab t fit on screen.
func (d *detailView) itemsPerPage(t detailTab) int {
	h := d.bodyHeight()
	if t == tabTraffic {
		return max(h-d.trafficHeadLines(), 1)
	}
	return max(h/2, 1)
}

// textLines returns the lines of a text tab.
func (d *detailView) textLines(t detailTab) []string {
	switch t {
	case tabOverview:
		if d.overview == nil {
			d.overview = overviewLines(d.st, &d.srv, d.width, d.costs.Overview(&d.srv))
		}
		return d.overview
	case tabStderr:
		if len(d.stderr) == 0 {
			return []string{d.st.Muted.Render("no stderr output")}
		}
		return d.stderr
	case tabInstructions:
		if d.srv.Instructions == "" {
			return []string{d.st.Muted.Render("the server gave no instructions")}
		}
		return wrapLines(tuikit.Clean(d.srv.Instructions), d.width)
	case tabLogs:
		return d.logLines()
	case tabTools, tabResources, tabPrompts, tabSkills, tabTraffic, numTabs:
	}
	return nil
}

func (d *detailView) clamp() {
	h := d.bodyHeight()
	for t := range numTabs {
		if hasCursor(t) {
			n := d.count(t)
			d.cursor[t] = max(0, min(d.cursor[t], n-1))
			per := d.itemsPerPage(t)
			if d.cursor[t] < d.offset[t] {
				d.offset[t] = d.cursor[t]
			}
			if d.cursor[t] >= d.offset[t]+per {
				d.offset[t] = d.cursor[t] - per + 1
			}
			d.offset[t] = max(0, min(d.offset[t], n-per))
			continue
		}
		if t == tabOverview && d.overview == nil && d.tab != tabOverview {
			continue // rebuilt lazily
		}
		n := len(d.textLines(t))
		d.offset[t] = max(0, min(d.offset[t], n-h))
	}
}

// Update handles scrolling, and the filter while it is typed; the action
// table switches tabs and starts the filter (showTab, startFilter).
func (d *detailView) Update(msg tea.Msg) tea.Cmd {
	if d.filter.Active() {
		changed, used, cmd := d.filter.Update(msg)
		if changed {
			d.refilter()
			d.cursor[d.tab], d.offset[d.tab] = 0, 0
			d.clamp()
		}
		if used {
			return cmd
		}
	}
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	k := d.keys
	page := d.bodyHeight()
	if hasCursor(d.tab) {
		page = d.itemsPerPage(d.tab)
	}
	switch delta, scroll := k.ScrollBy(km, page); {
	case scroll && hasCursor(d.tab):
		d.cursor[d.tab] += delta
	case scroll:
		d.offset[d.tab] += delta
	default:
		return nil
	}
	d.moved()
	return nil
}

// showTab switches to tab t, dropping the filter.
func (d *detailView) showTab(t detailTab) {
	d.filter.Clear()
	d.tab = t
	d.moved()
}

// startFilter starts typing the current tab's filter.
func (d *detailView) startFilter() tea.Cmd {
	d.filter.SetPlaceholder("filter by name or description")
	if d.tab == tabTraffic {
		d.filter.SetPlaceholder("filter by method")
	}
	return d.filter.Start()
}

// moved refits the view after its cursor, offset or tab changed: the
// filter's matches, the scroll bounds, and whether stderr and traffic
// follow what arrives.
func (d *detailView) moved() {
	d.refilter()
	d.clamp()
	if d.tab == tabStderr {
		d.follow = d.offset[tabStderr] >= len(d.textLines(tabStderr))-d.bodyHeight()
	}
	if d.tab == tabTraffic {
		d.followFrames = d.cursor[tabTraffic] >= d.count(tabTraffic)-1
	}
}

// tabBar names the tabs with their item counts. The current one is in
// brackets as well as styled, so it shows without colour (NO_COLOR drops
// bold and underline too). When they do not fit, the padding goes, then
// the tabs farthest from the current one, with ‹ and › where some are
// left out: a name is never cut nor abbreviated, and the current tab is
// always on screen, whole.
func (d *detailView) tabBar() string {
	for _, pad := range []bool{true, false} {
		if s := d.tabRange(pad, 0, numTabs-1); ansi.StringWidth(s) <= d.width {
			return s
		}
	}
	lo, hi := d.tab, d.tab
	fits := func(lo, hi detailTab) bool { return ansi.StringWidth(d.tabRange(false, lo, hi)) <= d.width }
	for grew := true; grew; {
		grew = false
		if hi < numTabs-1 && fits(lo, hi+1) {
			hi, grew = hi+1, true
		}
		if lo > 0 && fits(lo-1, hi) {
			lo, grew = lo-1, true
		}
	}
	return d.tabRange(false, lo, hi)
}

// tabRange draws tabs lo to hi by name, the others padded with a space
// each side when pad is set, marking with ‹ and › that tabs before or
// after them are left out.
func (d *detailView) tabRange(pad bool, lo, hi detailTab) string {
	var b strings.Builder
	if lo > 0 {
		b.WriteString(d.st.Muted.Render("‹"))
	}
	for t := lo; t <= hi; t++ {
		name := tabNames[t]
		if isListTab(t) {
			name += " " + strconv.Itoa(d.itemCount(t))
		}
		if t > lo || lo > 0 {
			b.WriteByte(' ')
		}
		switch {
		case t == d.tab:
			b.WriteString(d.st.TabActive.Render("[" + name + "]"))
		case pad:
			b.WriteString(d.st.Tab.Render(" " + name + " "))
		default:
			b.WriteString(d.st.Tab.Render(name))
		}
	}
	if hi < numTabs-1 {
		b.WriteString(" " + d.st.Muted.Render("›"))
	}
	return b.String()
}

// View renders title, tab bar and the current tab.
func (d *detailView) View() string {
	var b strings.Builder
	s := &d.srv
	state := status.WordNow(s, d.now())
	b.WriteString(glyph(d.st, s) + " " + d.st.Title.Render(textsafe.SanitizeLine(s.Name)) + d.st.Muted.Render(fmt.Sprintf("  %s · %s · %s", s.Scope, s.Transport, state)))
	b.WriteByte('\n')
	b.WriteString(d.tabBar())
	h := d.bodyHeight()
	if isListTab(d.tab) {
		d.viewItems(&b, h)
		return b.String()
	}
	if d.tab == tabTraffic {
		d.viewTraffic(&b, h)
		return b.String()
	}
	lines := d.textLines(d.tab)
	off := max(0, min(d.offset[d.tab], len(lines)-h))
	for _, l := range lines[off:min(off+h, len(lines))] {
		b.WriteByte('\n')
		b.WriteString(l)
	}
	return b.String()
}
