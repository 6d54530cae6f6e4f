package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/status"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// viewItems draws the list tabs (tools, resources, prompts): a name line
// with badges and a description line per item, from the scroll offset.
func (d *detailView) viewItems(b *strings.Builder, h int) {
	if d.filter.Shown() {
		b.WriteByte('\n')
		b.WriteString(d.filter.View())
		h--
	}
	n := d.count(d.tab)
	if n == 0 && d.shown != nil {
		b.WriteByte('\n')
		b.WriteString(d.st.Muted.Render("nothing matches the filter"))
		return
	}
	if n == 0 {
		b.WriteByte('\n')
		what := strings.ToLower(tabNames[d.tab])
		if d.srv.State != model.StateConnected {
			b.WriteString(d.st.Muted.Render("no " + what + ": the server is not connected (" + status.Word(&d.srv) + ")"))
		} else {
			b.WriteString(d.st.Muted.Render("the server has no " + what))
		}
		return
	}
	if d.tab == tabTools && len(d.srv.ToolsDeniedBy) > 0 {
		// the cause before the tools it denies, whole: it is what to fix
		why := status.ToolsDenied(d.srv.ToolsDeniedBy)
		for _, l := range strings.Split(tuikit.Wrap(why, max(d.width-2, 10)), "\n") {
			b.WriteString("\n" + d.st.Bad.Render(l))
			h--
		}
	}
	per := max(h/2, 1)
	off := d.offset[d.tab]
	for i := off; i < min(off+per, n); i++ {
		title, desc := d.item(d.index(d.tab, i))
		title, desc = textsafe.SanitizeLine(title), textsafe.SanitizeLine(tuikit.FirstLine(desc))
		prefix := "  "
		if i == d.cursor[d.tab] {
			prefix = "› "
			title = d.st.Selected.Render(title)
		}
		b.WriteByte('\n')
		b.WriteString(prefix + title)
		if h >= 2 {
			b.WriteByte('\n')
			b.WriteString("    " + d.st.Muted.Render(tuikit.FirstLine(desc)))
		}
	}
}

// item returns the two lines describing item i of the current list tab,
// which the filter matches; a traffic frame is its method alone (the tab
// draws its frames itself, frameLine).
func (d *detailView) item(i int) (string, string) {
	switch d.tab {
	case tabTools:
		t := &d.srv.Tools[i]
		return t.Name + toolBadges(t, d.srv.ToolsDeniedBy), orDefault(t.Description, t.ExposedName)
	case tabResources:
		if i < len(d.srv.Resources) {
			r := &d.srv.Resources[i]
			if w := watchedOf(&d.srv, r.URI); w != nil {
				return r.Name + "  " + r.URI + "  ◉ watching", watchLine(w)
			}
			return r.Name + "  " + r.URI, tuikit.JoinNonEmpty(" · ", r.MIMEType, r.Description)
		}
		t := &d.srv.Templates[i-len(d.srv.Resources)]
		return t.Name + "  " + t.URITemplate + "  (template)", tuikit.JoinNonEmpty(" · ", t.MIMEType, t.Description)
	case tabPrompts:
		p := &d.srv.Prompts[i]
		var args []string
		for _, a := range p.Arguments {
			n := a.Name
			if !a.Required {
				n += "?"
			}
			args = append(args, n)
		}
		return p.Name + "(" + strings.Join(args, ", ") + ")", p.Description
	case tabSkills:
		s := &d.srv.Skills[i]
		title := fmt.Sprintf("%s  %d file(s), %s", s.Name, len(s.Files), humanize.IBytes(uint64(max(s.TotalSize(), 0))))
		if s.Problem != "" {
			return title, "cannot be loaded: " + s.Problem
		}
		return title, s.Description
	case tabTraffic:
		return d.srv.Traffic[i].Method, ""
	case tabOverview, tabStderr, tabInstructions, tabLogs, numTabs:
	}
	return "", ""
}

// selected is the item under the cursor of the current tab, among those
// on screen: the one every key on an item acts on (Model.itemFor). With
// none on screen it is -1, and why says what the tab shows instead.
func (d *detailView) selected() (item int, why string) {
	switch n := d.count(d.tab); {
	case n > 0 && hasCursor(d.tab):
		return d.index(d.tab, d.cursor[d.tab]), ""
	case d.shown != nil:
		return -1, "nothing matches the filter"
	case d.tab == tabTraffic:
		return -1, "no frames yet"
	}
	return -1, "the tab lists nothing"
}

// toolBadges is a tool's title, when it is not its name, and its badges
// (status.ToolBadges), in brackets after its name.
func toolBadges(t *engine.Tool, deniedBy []model.Problem) string {
	var b []string
	if t.Title != "" && t.Title != t.Name {
		b = append(b, "“"+t.Title+"”")
	}
	b = append(b, status.ToolBadges(t, deniedBy)...)
	if len(b) == 0 {
		return ""
	}
	return "  [" + strings.Join(b, ", ") + "]"
}

// watchLine is a watched resource's second line: when it last changed (or
// was read), how many updates came, and the start of its latest content.
func watchLine(w *engine.WatchedResource) string {
	when := "read " + w.ReadAt.Format(time.TimeOnly)
	if w.Updates > 0 {
		when = fmt.Sprintf("changed %s (%d updates)", w.ChangedAt.Format(time.TimeOnly), w.Updates)
	}
	if w.ReadAt.IsZero() {
		when = "reading…"
	}
	if w.ReadError != "" {
		return when + " · " + w.ReadError
	}
	var text string
	for _, c := range w.Contents {
		if t := strings.TrimSpace(c.Text); t != "" {
			text = strings.Join(strings.Fields(t), " ")
			break
		}
	}
	return tuikit.JoinNonEmpty(" · ", when, text)
}
