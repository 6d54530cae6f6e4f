package form

import (
	"context"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// completionMsg carries a server's suggestions for one field of a form.
// Every open modal is given it: a form under another modal still takes
// its suggestions.
type completionMsg struct {
	form   *Modal
	seq    int // the form's request number: an older answer is dropped
	field  string
	values []string
}

func (completionMsg) Broadcast() {}

// Completer asks the server for suggestions for a field of a prompt's or
// resource template's arguments, given the other fields' values.
type Completer func(ctx context.Context, field string, others map[string]string) ([]string, error)

// askCompletions is the Cmd fetching suggestions for the field that just
// got the focus (Update never does I/O); latest wins (seq).
func (m *Modal) askCompletions() tea.Cmd {
	ff := m.form.GetFocusedField()
	if m.Complete == nil || ff == nil || ff.GetKey() == m.focus {
		return nil
	}
	m.focus = ff.GetKey()
	field := m.fieldNamed(m.focus)
	if field == nil || field.input == nil {
		return nil
	}
	m.seq++
	seq, name, others, ctx, complete := m.seq, field.name, m.otherValues(field.name), m.env.Ctx, m.Complete
	return func() tea.Msg {
		values, err := complete(ctx, name, others)
		if err != nil {
			return nil // suggestions are a help, not a requirement: the form works without
		}
		return completionMsg{form: m, seq: seq, field: name, values: values}
	}
}

// takeCompletions puts a server's suggestions on their field, unless a
// newer request was made since.
func (m *Modal) takeCompletions(msg completionMsg) {
	if msg.form != m || msg.seq != m.seq {
		return
	}
	if f := m.fieldNamed(msg.field); f != nil && f.input != nil {
		f.input.Suggestions(msg.values)
		if m.suggested == nil {
			m.suggested = map[string][]string{}
		}
		m.suggested[msg.field] = msg.values
	}
}

// suggestionLine shows the focused field's suggestions: "ctrl+e" accepts
// the one matching what is typed.
func (m *Modal) suggestionLine() string {
	ff := m.form.GetFocusedField()
	if ff == nil || len(m.suggested[ff.GetKey()]) == 0 {
		return ""
	}
	vals := m.suggested[ff.GetKey()]
	if len(vals) > 8 {
		vals = append(vals[:8:8], "…")
	}
	return m.env.St.Muted.Render("suggestions: " + textsafe.SanitizeLine(strings.Join(vals, " · ")) + " (ctrl+e completes)")
}

func (m *Modal) fieldNamed(name string) *field {
	for _, f := range m.sf.fields {
		if f.name == name {
			return f
		}
	}
	return nil
}

// otherValues are the filled-in text fields other than name, the context a
// server completes with.
func (m *Modal) otherValues(name string) map[string]string {
	out := map[string]string{}
	for _, f := range m.sf.fields {
		if f.name != name && f.input != nil && f.str != "" {
			out[f.name] = f.str
		}
	}
	return out
}
