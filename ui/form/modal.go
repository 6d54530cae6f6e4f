package form

import (
	"cmp"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// Modal edits a Schema with huh. enter moves through the fields and
// submits after the last; esc cancels; ctrl+d declines (when Decline is
// set). Values are checked field by field and then against the whole
// schema before Submit is called. Its opener sets the exported fields
// before it is shown.
type Modal struct {
	// Verb is what enter on the last field does: "call", "read", "accept".
	Verb string
	// Submit receives the checked values and returns what replaces the
	// form (Fail keeps it open with a reason).
	Submit func(args map[string]any) (tuikit.Modal, tea.Cmd)
	// Cancel is esc; nil closes the form.
	Cancel func() (tuikit.Modal, tea.Cmd)
	// Decline is ctrl+d; nil: no decline action.
	Decline func() (tuikit.Modal, tea.Cmd)
	// Complete, when set, asks the server for suggestions for the focused
	// field (completion.go).
	Complete Completer
	// Question is what the form answers (an elicitation), nil for none.
	Question any

	env   *tuikit.Env
	title string
	intro []string
	sf    *Schema
	form  *huh.Form
	err   string

	// focus and seq track the completions asked last.
	focus     string
	seq       int
	suggested map[string][]string
	// suggest is the list of suggestions ctrl+e opened on an empty field,
	// nil while closed (suggestlist.go); hint says, until the next key,
	// that it had none to open.
	suggest *suggestList
	hint    string
}

var _ tuikit.Modal = (*Modal)(nil)

// New builds the form of sf under title and intro; call Init for its
// first Cmd.
func New(e *tuikit.Env, title string, intro []string, sf *Schema) *Modal {
	m := &Modal{env: e, title: title, intro: intro, sf: sf}
	m.build()
	return m
}

func (m *Modal) build() {
	fields := m.sf.Fields()
	if len(fields) == 0 {
		fields = []huh.Field{huh.NewNote().Title("No arguments").Description("nothing to fill in")}
	}
	km := huh.NewDefaultKeyMap()
	km.Quit = key.NewBinding(key.WithKeys("ctrl+c")) // the root model quits on ctrl+c first
	km.Input.AcceptSuggestion = m.env.Keys.Complete
	m.form = huh.NewForm(huh.NewGroup(fields...)).
		WithShowHelp(false).
		WithShowErrors(false).
		WithKeyMap(km).
		WithTheme(m.env.St.Form()).
		WithLayout(huh.LayoutDefault) // the group's viewport keeps the focused field on screen
	m.resize()
}

// resize fits the form to the body, below its intro and above the
// suggestions (one line, or the open list).
func (m *Modal) resize() {
	w, h := m.env.BodySize()
	below := 1
	if m.suggest != nil {
		below = len(m.suggestLines(w))
	}
	m.form = m.form.WithWidth(max(w-2, 20)).WithHeight(max(h-len(m.introLines(w))-3-below, 3))
}

// Init is the form's first Cmd: its cursor, and the completions of the
// first field.
func (m *Modal) Init() tea.Cmd { return tea.Batch(m.form.Init(), m.askCompletions()) }

// Fail keeps the form open, its values kept, saying why they were not
// taken: for Submit when what it does with them fails.
func (m *Modal) Fail(reason string) (tuikit.Modal, tea.Cmd) {
	m.err = reason
	m.build() // values live in sf, so the new form keeps them
	m.focus = ""
	return m, m.Init()
}

// TakesText: a form's keys are text (? is typed; help is on f1).
func (m *Modal) TakesText() bool { return true }

// Answers is the question the form answers.
func (m *Modal) Answers() any { return m.Question }

func (m *Modal) Help() []key.Binding {
	if m.suggest != nil {
		return m.suggestHelp()
	}
	k := m.env.Keys
	var b []key.Binding
	if fields := m.sf.fields; len(fields) == 0 || isFocused(m.form, fields[len(fields)-1].name) {
		b = append(b, key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", cmp.Or(m.Verb, "submit"))))
	} else {
		b = append(b, key.NewBinding(key.WithKeys("tab"), key.WithHelp("enter/tab", "next")))
	}
	if len(m.sf.fields) > 1 {
		b = append(b, key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous")))
	}
	if m.Decline != nil {
		b = append(b, k.Decline)
	}
	return append(b, k.Cancel)
}

func (m *Modal) Update(msg tea.Msg) (tuikit.Modal, tea.Cmd) {
	switch msg := msg.(type) {
	case completionMsg:
		m.takeCompletions(msg)
		return m, nil
	case tea.KeyMsg:
		m.hint = ""
		if m.suggest != nil {
			if next, cmd, used := m.updateSuggestions(msg); used {
				return next, cmd
			}
		}
		if m.openSuggestions(msg) {
			return m, nil
		}
		if key.Matches(msg, m.env.Keys.Cancel) {
			return m.cancel()
		}
		if m.Decline != nil && key.Matches(msg, m.env.Keys.Decline) {
			return m.Decline()
		}
	case tea.WindowSizeMsg:
		m.resize()
	}
	f, cmd := m.form.Update(msg)
	if hf, ok := f.(*huh.Form); ok {
		m.form = hf
	}
	switch m.form.State {
	case huh.StateCompleted:
		args, err := m.sf.Values()
		if err == nil {
			err = m.sf.Validate(args)
		}
		if err != nil {
			return m.Fail(err.Error())
		}
		return m.Submit(args)
	case huh.StateAborted:
		return m.cancel()
	case huh.StateNormal:
	}
	return m, tea.Batch(cmd, m.askCompletions())
}

// cancel is esc: Cancel, or close.
func (m *Modal) cancel() (tuikit.Modal, tea.Cmd) {
	if m.Cancel == nil {
		return nil, nil
	}
	return m.Cancel()
}

func (m *Modal) introLines(width int) []string {
	var out []string
	out = append(out, m.env.St.Heading.Render(textsafe.SanitizeLine(m.title)))
	for _, l := range m.intro {
		out = append(out, strings.Split(tuikit.Wrap(tuikit.Clean(l), max(width, 10)), "\n")...)
	}
	errs := []string{}
	if m.err != "" {
		errs = append(errs, m.err)
	}
	for _, e := range m.form.Errors() {
		errs = append(errs, e.Error())
	}
	for _, e := range errs {
		out = append(out, strings.Split(tuikit.Wrap(m.env.St.Bad.Render("✗ "+textsafe.SanitizeLine(e)), max(width, 10)), "\n")...)
	}
	return out
}

func (m *Modal) View(width, _ int) string {
	out := strings.Join(m.introLines(width), "\n") + "\n\n" + m.form.View()
	if m.suggest != nil {
		return out + "\n" + strings.Join(m.suggestLines(width), "\n")
	}
	if m.hint != "" {
		return out + "\n" + m.env.St.Muted.Render(m.hint)
	}
	if s := m.suggestionLine(); s != "" {
		out += "\n" + s
	}
	return out
}

// isFocused reports whether the field named key has the focus.
func isFocused(f *huh.Form, key string) bool {
	ff := f.GetFocusedField()
	return ff != nil && ff.GetKey() == key
}
