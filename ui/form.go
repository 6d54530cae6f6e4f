package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// formModal edits a schemaForm with huh. enter moves through the fields and
// submits after the last; esc cancels; ctrl+d declines (elicitation only).
// Values are checked field by field and then against the whole schema before
// submit is called.
type formModal struct {
	env     *env
	title   string
	intro   []string
	sf      *schemaForm
	form    *huh.Form
	err     string
	submit  func(args map[string]any) (modal, tea.Cmd)
	cancel  func() (modal, tea.Cmd)
	decline func() (modal, tea.Cmd) // nil: no decline action
	elicit  *elicitation            // set for elicitation forms
	verb    string                  // what enter on the last field does: "call", "read", "accept"

	// complete, when set, asks the server for suggestions for the focused
	// field (completion.go); focus and seq track what was asked last.
	complete  completer
	focus     string
	seq       int
	suggested map[string][]string
}

// newFormModal builds the form; call init() for its first Cmd.
func newFormModal(e *env, title string, intro []string, sf *schemaForm) *formModal {
	m := &formModal{env: e, title: title, intro: intro, sf: sf}
	m.build()
	return m
}

func (m *formModal) build() {
	fields := m.sf.Fields()
	if len(fields) == 0 {
		fields = []huh.Field{huh.NewNote().Title("No arguments").Description("nothing to fill in")}
	}
	km := huh.NewDefaultKeyMap()
	km.Quit = key.NewBinding(key.WithKeys("ctrl+c")) // the root model quits on ctrl+c first
	m.form = huh.NewForm(huh.NewGroup(fields...)).
		WithShowHelp(false).
		WithShowErrors(false).
		WithKeyMap(km).
		WithTheme(m.env.st.Form()).
		WithLayout(huh.LayoutDefault) // the group's viewport keeps the focused field on screen
	m.resize()
}

func (m *formModal) resize() {
	w, h := m.env.bodySize()
	m.form = m.form.WithWidth(max(w-2, 20)).WithHeight(max(h-len(m.introLines(w))-4, 3))
}

func (m *formModal) init() tea.Cmd { return tea.Batch(m.form.Init(), m.askCompletions()) }

func (m *formModal) Help() []key.Binding {
	k := m.env.keys
	var b []key.Binding
	if fields := m.sf.fields; len(fields) == 0 || isFocused(m.form, fields[len(fields)-1].name) {
		b = append(b, key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", orDefault(m.verb, "submit"))))
	} else {
		b = append(b, key.NewBinding(key.WithKeys("tab"), key.WithHelp("enter/tab", "next")))
	}
	if len(m.sf.fields) > 1 {
		b = append(b, key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous")))
	}
	if m.decline != nil {
		b = append(b, k.Decline)
	}
	return append(b, k.Cancel)
}

func (m *formModal) Update(msg tea.Msg) (modal, tea.Cmd) {
	switch msg := msg.(type) {
	case completionMsg:
		m.takeCompletions(msg)
		return m, nil
	case tea.KeyMsg:
		if key.Matches(msg, m.env.keys.Cancel) {
			return m.cancel()
		}
		if m.decline != nil && key.Matches(msg, m.env.keys.Decline) {
			return m.decline()
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
			m.err = err.Error()
			m.build() // values live in sf, so the new form keeps them
			m.focus = ""
			return m, tea.Batch(m.form.Init(), m.askCompletions())
		}
		return m.submit(args)
	case huh.StateAborted:
		return m.cancel()
	case huh.StateNormal:
	}
	return m, tea.Batch(cmd, m.askCompletions())
}

func (m *formModal) introLines(width int) []string {
	var out []string
	out = append(out, m.env.st.Heading.Render(textsafe.SanitizeLine(m.title)))
	for _, l := range m.intro {
		out = append(out, strings.Split(wordwrap(clean(l), max(width, 10)), "\n")...)
	}
	errs := []string{}
	if m.err != "" {
		errs = append(errs, m.err)
	}
	for _, e := range m.form.Errors() {
		errs = append(errs, e.Error())
	}
	for _, e := range errs {
		out = append(out, strings.Split(wordwrap(m.env.st.Bad.Render("✗ "+textsafe.SanitizeLine(e)), max(width, 10)), "\n")...)
	}
	return out
}

func (m *formModal) View(width, height int) string {
	out := strings.Join(m.introLines(width), "\n") + "\n\n" + m.form.View()
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
