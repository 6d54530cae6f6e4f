// Package review is the review of what a server tells a model that
// changed since the person accepted it: one change at a time, accepted,
// accepted all at once, or kept withheld.
package review

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/model/pins"
	"github.com/mcpdeck/mcpdeck/model/scan"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/status"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// Modal shows what a server tells a model that is not as the person
// accepted it (engine.PinReport), one change at a time: a word diff of
// the description, a diff of each schema, what the scan found; the person
// accepts it, accepts all, or keeps withholding.
type Modal struct {
	env    *tuikit.Env
	server string
	// accept has the engine accept the named changes (nil: every one),
	// reporting the outcome as verb.
	accept   func(verb string, names []string) tea.Cmd
	changes  []pins.Change
	findings []scan.Finding
	i        int
	offset   int // first line of the change's details on screen
}

// New is the review of server's changes and the scan's findings on them.
func New(e *tuikit.Env, server string, changes []pins.Change, findings []scan.Finding, accept func(verb string, names []string) tea.Cmd) *Modal {
	return &Modal{env: e, server: server, changes: changes, findings: findings, accept: accept}
}

func (r *Modal) TakesText() bool { return false }

func (r *Modal) Answers() any { return nil }

// keys are the review's own: the approval prompt's keys, worded for it.
func (r *Modal) keys() (accept, all, keep, later key.Binding) {
	k := r.env.Keys
	re := func(b key.Binding, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, desc))
	}
	return re(k.ApproveOne, "accept"), re(k.ApproveAll, "accept all"), re(k.RejectOne, "keep withholding"), re(k.Later, "close")
}

func (r *Modal) Help() []key.Binding {
	accept, all, keep, later := r.keys()
	return []key.Binding{accept, all, keep, later, r.env.Keys.Quit}
}

func (r *Modal) Update(msg tea.Msg) (tuikit.Modal, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return r, nil
	}
	accept, all, keep, later := r.keys()
	switch {
	case key.Matches(km, accept):
		c := r.changes[r.i]
		name := c.Name
		if c.Kind == pins.KindInstructions {
			name = "instructions"
		}
		cmd := r.accept("accept "+string(c.Kind)+" "+textsafe.SanitizeLine(c.Name)+" of", []string{name})
		return r.next(), cmd
	case key.Matches(km, all):
		return nil, r.accept("accept the changed tools of", nil)
	case key.Matches(km, keep):
		return r.next(), nil
	case key.Matches(km, later):
		return nil, nil
	}
	_, h := r.env.BodySize()
	if delta, ok := r.env.Keys.ScrollBy(km, max(h-8, 1)); ok {
		r.offset = max(0, r.offset+delta) // View clamps the end
	}
	return r, nil
}

// next moves to the next change; past the last the review closes.
func (r *Modal) next() tuikit.Modal {
	r.i++
	r.offset = 0
	if r.i >= len(r.changes) {
		return nil
	}
	return r
}

func (r *Modal) View(width, height int) string {
	st := r.env.St
	inner := max(width-4, 10)
	c := r.changes[r.i]
	title := "What " + textsafe.SanitizeLine(r.server) + " tells a model changed"
	if len(r.changes) > 1 {
		title += st.Muted.Render(" (" + strconv.Itoa(r.i+1) + " of " + strconv.Itoa(len(r.changes)) + ")")
	}
	item := string(c.Kind) + " " + textsafe.Escape(c.Name)
	if c.Kind == pins.KindInstructions {
		item = "instructions"
	}
	head := []string{st.Heading.Render(title), "", st.Title.Render(item) + st.Muted.Render(" · "+status.ChangeWords(c)), ""}
	var keys []string
	for _, b := range r.Help() {
		keys = append(keys, st.Key.Render(b.Help().Key)+" "+b.Help().Desc)
	}
	foot := []string{"", "A withheld item is not called nor offered to agents until you accept it.", strings.Join(keys, "  ")}
	head, foot = tuikit.WrapAll(head, inner), tuikit.WrapAll(foot, inner)
	body := tuikit.WrapAll(r.body(c), inner)
	room := max(height-2-len(head)-len(foot), 3)
	if len(body) > room {
		room--
		r.offset = max(0, min(r.offset, len(body)-room))
		end := r.offset + room
		more := st.Muted.Render("↑/↓ scroll · lines " + strconv.Itoa(r.offset+1) + "–" + strconv.Itoa(end) + " of " + strconv.Itoa(len(body)))
		body = append(body[r.offset:end:end], more)
	}
	return tuikit.Panel(st, append(append(head, body...), foot...), width, height)
}

// body is one change in lines: each text field as a word diff
// ([-gone-] {+added+}, coloured too), each schema as a line diff, then
// the scan's findings for the item; every text escaped, so a hidden
// character shows as \U000e0041.
func (r *Modal) body(c pins.Change) []string {
	st := r.env.St
	var old, cur pins.Item
	if c.Old != nil {
		old = *c.Old
	}
	if c.New != nil {
		cur = *c.New
	}
	var lines []string
	words := func(label, a, b string) {
		if a == b {
			return
		}
		var sb strings.Builder
		for _, p := range pins.Words(a, b) {
			t := textsafe.Escape(p.Text)
			switch p.Op {
			case pins.Deleted:
				sb.WriteString(st.DiffDel.Render("[-" + t + "-]"))
			case pins.Added:
				sb.WriteString(st.DiffAdd.Render("{+" + t + "+}"))
			case pins.Same:
				sb.WriteString(st.Code.Render(t))
			}
		}
		lines = append(lines, st.Muted.Render(label+":"), sb.String(), "")
	}
	schema := func(label, a, b string) {
		if a == b {
			return
		}
		var diff []string
		for _, p := range pins.SchemaLines(a, b) {
			mark := "  "
			switch p.Op {
			case pins.Deleted:
				mark = "- "
			case pins.Added:
				mark = "+ "
			case pins.Same:
			}
			diff = append(diff, mark+textsafe.Escape(p.Text))
		}
		lines = append(append(append(lines, st.Muted.Render(label+":")), tuikit.DiffLines(st, strings.Join(diff, "\n"))...), "")
	}
	words("Title", old.Title, cur.Title)
	words("Description", old.Description, cur.Description)
	schema(schemaTitle(c.Kind), old.Schema, cur.Schema)
	schema("Output schema", old.Output, cur.Output)
	schema("Annotations", old.Annotations, cur.Annotations)
	if old.Cut || cur.Cut {
		lines = append(lines, st.Muted.Render("Texts longer than mcpdeck keeps are cut here; the check covers them whole."), "")
	}
	if c.Status == pins.StatusLock || c.Lock {
		lines = append(lines, st.Warn.Render("The repository's "+pins.LockFileName+" pins another version of it."), "")
	}
	for _, f := range r.findings {
		if f.Kind == c.Kind && f.Item == c.Name {
			mark, style := "· ", st.Muted
			if f.Level == scan.Warning {
				mark, style = "⚠ ", st.Warn
			}
			lines = append(lines, style.Render(mark+string(f.Level)+" "+f.Rule+" ("+f.Field+"): "+f.Message), st.Muted.Render("  "+f.Excerpt))
		}
	}
	return lines
}

func schemaTitle(k pins.Kind) string {
	switch k {
	case pins.KindPrompt:
		return "Arguments"
	case pins.KindTemplate:
		return "Template"
	case pins.KindTool, pins.KindInstructions:
	}
	return "Input schema"
}
