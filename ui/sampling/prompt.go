// Package sampling is the prompt for a server's sampling request: the
// whole request, and the person's choice — reply once, always allow for
// this server, decline, never for this server — with an editor for the
// reply when no command writes it.
package sampling

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// Ask is the request the prompt answers, waiting for the person.
type Ask interface {
	Request() engine.SampleRequest
	// Answer gives the server the person's answer (once; later answers
	// are dropped).
	Answer(r engine.SampleResponse)
}

// prompt is the prompt for a server's sampling request: the whole
// request (scrollable), then the person's choice — reply once, always allow
// for this server, decline, never for this server. Replying without a
// configured command opens an editor for the reply, sent as model "human".
type prompt struct {
	env    *tuikit.Env
	a      Ask
	req    engine.SampleRequest
	choice string          // once or always, while the reply is being typed
	editor *textarea.Model // non-nil while the reply is being typed
	offset int             // first line of the request shown
}

// New is the prompt for a; a request already allowed opens with the reply
// editor.
func New(e *tuikit.Env, a Ask) (tuikit.Modal, tea.Cmd) {
	m := &prompt{env: e, a: a, req: a.Request()}
	if m.req.Allowed && m.req.Command == "" {
		return m, m.startReply(engine.SampleOnce)
	}
	return m, nil
}

// startReply opens the reply editor, or answers at once when a command
// writes the reply.
func (m *prompt) startReply(choice string) tea.Cmd {
	if m.req.Command != "" {
		m.a.Answer(engine.SampleResponse{Choice: choice})
		return nil
	}
	ta := tuikit.NewTextArea()
	ta.Placeholder = "Type the reply the server gets as the model's answer"
	ta.ShowLineNumbers = false
	ta.CharLimit = 0
	w, h := m.env.BodySize()
	ta.SetWidth(max(w-6, 10))
	ta.SetHeight(max(min(h/3, 10), 3))
	m.choice, m.editor = choice, &ta
	return ta.Focus()
}

// TakesText: the reply is typed in the editor.
func (m *prompt) TakesText() bool { return m.editor != nil }

// Answers is the request the prompt answers.
func (m *prompt) Answers() any { return m.a }

func (m *prompt) Help() []key.Binding {
	k := m.env.Keys
	if m.editor != nil {
		return []key.Binding{k.SendReply, k.ReplyDecline}
	}
	return []key.Binding{k.SampleOnce, k.SampleAlways, k.SampleDecline, k.SampleNever, k.Down}
}

func (m *prompt) Update(msg tea.Msg) (tuikit.Modal, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		if m.editor != nil {
			ed, cmd := m.editor.Update(msg)
			m.editor = &ed
			return m, cmd
		}
		return m, nil
	}
	k := m.env.Keys
	if m.editor != nil {
		switch {
		case key.Matches(km, k.SendReply):
			m.a.Answer(engine.SampleResponse{Choice: m.choice, Text: m.editor.Value()})
			return nil, nil
		case key.Matches(km, k.ReplyDecline):
			m.a.Answer(engine.SampleResponse{Choice: engine.SampleDecline})
			return nil, nil
		}
		ed, cmd := m.editor.Update(msg)
		m.editor = &ed
		return m, cmd
	}
	switch {
	case key.Matches(km, k.SampleOnce):
		return m.replyOrClose(engine.SampleOnce)
	case key.Matches(km, k.SampleAlways):
		return m.replyOrClose(engine.SampleAlways)
	case key.Matches(km, k.SampleDecline), key.Matches(km, k.Cancel):
		m.a.Answer(engine.SampleResponse{Choice: engine.SampleDecline})
		return nil, nil
	case key.Matches(km, k.SampleNever):
		m.a.Answer(engine.SampleResponse{Choice: engine.SampleNever})
		return nil, nil
	}
	if d, ok := k.ScrollBy(km, 5); ok {
		m.offset = max(0, min(m.offset+d, len(m.requestLines(m.env.Width-4))-1))
	}
	return m, nil
}

func (m *prompt) replyOrClose(choice string) (tuikit.Modal, tea.Cmd) {
	cmd := m.startReply(choice)
	if m.editor == nil {
		return nil, cmd
	}
	return m, cmd
}

func (m *prompt) View(width, height int) string {
	st := m.env.St
	r := m.req
	head := []string{st.Heading.Render("Sampling request from " + textsafe.SanitizeLine(r.Server) + forSample(r))}
	if m.editor == nil {
		head = append(head, st.Muted.Render("The server asks for a model's reply. mcpdeck has no model: you write the reply, or a command does, or you decline."))
	}
	head = append(head, "")
	var foot []string
	switch {
	case m.editor != nil:
		foot = append(foot, "", "Your reply (model \"human\"):", m.editor.View(), "",
			st.Key.Render("ctrl+s")+" send  "+st.Key.Render("esc")+" decline")
	default:
		by := `You write the reply (sent as model "human").`
		if r.Command != "" {
			by = "The command " + st.Accent.Render(textsafe.SanitizeLine(r.Command)) + " writes the reply."
		}
		foot = append(foot, "", by,
			st.Key.Render("enter")+" reply once  "+st.Key.Render("A")+" always allow for this server  "+
				st.Key.Render("x")+" decline  "+st.Key.Render("X")+" never for this server")
	}
	body := m.requestLines(width - 4)
	room := max(height-2-lines(head, width-4)-lines(foot, width-4), 1)
	off := min(m.offset, max(0, len(body)-room))
	shown := body[off:min(len(body), off+room)]
	if off > 0 || off+room < len(body) {
		shown = append(shown[:len(shown):len(shown)], st.Muted.Render(fmt.Sprintf("(lines %d–%d of %d; ↑↓ scroll)", off+1, off+len(shown), len(body))))
	}
	all := append(append(head, shown...), foot...)
	return tuikit.Panel(st, all, width, height)
}

// requestLines is the whole request, wrapped to width: system prompt,
// every message, then the parameters.
func (m *prompt) requestLines(width int) []string {
	st := m.env.St
	r := m.req
	var out []string
	add := func(s string) { out = append(out, strings.Split(tuikit.Wrap(s, max(width, 10)), "\n")...) }
	if r.SystemPrompt != "" {
		add(st.Muted.Render("system: ") + tuikit.Clean(r.SystemPrompt))
	}
	for _, msg := range r.Messages {
		add(st.Accent.Render(msg.Role+": ") + tuikit.Clean(msg.Text))
	}
	var params []string
	params = append(params, fmt.Sprintf("max tokens %d", r.MaxTokens))
	if r.Temperature != 0 {
		params = append(params, fmt.Sprintf("temperature %g", r.Temperature))
	}
	if r.Preferences != "" {
		params = append(params, "prefers "+r.Preferences)
	}
	if len(r.StopSequences) > 0 {
		params = append(params, "stops at "+strings.Join(r.StopSequences, ", "))
	}
	if r.IncludeContext != "" && r.IncludeContext != "none" {
		params = append(params, "asks for context: "+r.IncludeContext+" (not sent: mcpdeck has no conversation)")
	}
	if len(r.Tools) > 0 {
		params = append(params, "tools offered: "+strings.Join(r.Tools, ", "))
	}
	add(st.Muted.Render(strings.Join(params, " · ")))
	return out
}

// forSample names the call a sampling request is for.
func forSample(r engine.SampleRequest) string {
	if r.Request == "" {
		return ""
	}
	return " (for " + textsafe.SanitizeLine(r.Request) + ")"
}

// lines counts the wrapped lines of ls at width.
func lines(ls []string, width int) int {
	n := 0
	for _, l := range ls {
		n += strings.Count(tuikit.Wrap(l, max(width, 10)), "\n") + 1
	}
	return n
}
