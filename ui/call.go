package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// callDoneMsg ends call id with its rendered result; every open modal is
// given it (the running call may be under a prompt).
type callDoneMsg struct {
	id    int
	lines []string
	isErr bool
	err   error
}

func (callDoneMsg) Broadcast() {}

// callFunc runs one engine request and renders its result as plain lines.
type callFunc func(ctx context.Context, progress func(engine.Progress)) (lines []string, isErr bool, err error)

// runningModal shows a spinner and the latest progress while a call runs;
// esc cancels the call's context.
type runningModal struct {
	env      *env
	id       int
	title    string
	spin     spinner.Model
	progress *engine.Progress
	cancel   context.CancelFunc
	relay    *progressRelay
	stopping bool
}

// startCall runs f in a Cmd and returns the modal that waits for it.
func startCall(e *env, title string, f callFunc) (tuikit.Modal, tea.Cmd) {
	ctx, cancel := context.WithCancel(e.Ctx)
	relay := newProgressRelay()
	id := e.NextID()
	run := func() tea.Msg {
		lines, isErr, err := f(ctx, relay.send)
		relay.close()
		return callDoneMsg{id: id, lines: lines, isErr: isErr, err: err}
	}
	sp := spinner.New(spinner.WithSpinner(spinner.Line), spinner.WithStyle(e.St.Accent))
	m := &runningModal{env: e, id: id, title: title, spin: sp, cancel: cancel, relay: relay}
	return m, tea.Batch(run, relay.wait(id), m.spin.Tick)
}

func (m *runningModal) Help() []key.Binding { return []key.Binding{m.env.Keys.Cancel} }

func (m *runningModal) TakesText() bool { return false }

func (m *runningModal) Answers() any { return nil }

func (m *runningModal) Update(msg tea.Msg) (tuikit.Modal, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if key.Matches(msg, m.env.Keys.Cancel) && !m.stopping {
			m.stopping = true
			m.cancel()
		}
	case spinner.TickMsg:
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return m, cmd
	case progressMsg:
		if msg.id == m.id {
			p := msg.p
			m.progress = &p
			return m, m.relay.wait(m.id)
		}
	case callDoneMsg:
		if msg.id == m.id {
			m.cancel()
			return newResultModal(m.env, m.title, msg, m.stopping), nil
		}
	}
	return m, nil
}

func (m *runningModal) View(width, height int) string {
	st := m.env.St
	title := st.Heading.Render(textsafe.SanitizeLine(m.title))
	s := title + "\n\n" + m.spin.View() + " running…"
	if m.stopping {
		s = title + "\n\n" + m.spin.View() + " cancelling…"
	}
	if p := m.progress; p != nil {
		s += "\n" + progressLine(p, width)
	}
	return s + "\n\n" + st.Muted.Render("esc cancels the call")
}

// progressLine is "[#####.....] 50%  message" or "3 · message" without a total.
func progressLine(p *engine.Progress, width int) string {
	if p.Total > 0 {
		frac := max(0, min(p.Progress/p.Total, 1))
		barW := max(min(width-20, 30), 5)
		n := int(frac * float64(barW))
		return fmt.Sprintf("[%s%s] %3.0f%%  %s", strings.Repeat("#", n), strings.Repeat(".", barW-n), frac*100, textsafe.SanitizeLine(p.Message))
	}
	return fmt.Sprintf("progress %v  %s", p.Progress, textsafe.SanitizeLine(p.Message))
}

// resultModal shows a finished call's result, scrollable; esc closes it.
type resultModal struct {
	env       *env
	title     string
	lines     []string
	isErr     bool
	cancelled bool   // the person cancelled it: not the server's error
	tag       string // shown after the title instead of done or error (a traffic frame)
	offset    int

	wrapW   int
	wrapped []string
}

func newResultModal(e *env, title string, msg callDoneMsg, cancelled bool) *resultModal {
	m := &resultModal{env: e, title: title, lines: msg.lines, isErr: msg.isErr}
	if msg.err != nil {
		m.isErr = true
		if cancelled && errors.Is(msg.err, context.Canceled) {
			m.cancelled = true
			m.lines = []string{"you cancelled the request before it finished"}
		} else {
			m.lines = []string{msg.err.Error()}
		}
	}
	return m
}

func (m *resultModal) TakesText() bool { return false }

func (m *resultModal) Answers() any { return nil }

func (m *resultModal) Help() []key.Binding {
	k := m.env.Keys
	return []key.Binding{k.Up, k.Down, k.PageDown, k.Back, k.Quit}
}

func (m *resultModal) view(width int) []string {
	if m.wrapW != width || m.wrapped == nil {
		m.wrapW = width
		m.wrapped = m.wrapped[:0]
		for _, l := range m.lines {
			m.wrapped = append(m.wrapped, strings.Split(tuikit.Wrap(tuikit.Clean(l), max(width, 10)), "\n")...)
		}
	}
	return m.wrapped
}

func (m *resultModal) Update(msg tea.Msg) (tuikit.Modal, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	k := m.env.Keys
	_, h := m.env.BodySize()
	if key.Matches(km, k.Back) || key.Matches(km, k.Open) {
		return nil, nil
	}
	if delta, ok := k.ScrollBy(km, max(h-2, 1)); ok {
		m.offset += delta // View clamps it to the text
	}
	m.offset = max(0, m.offset)
	return m, nil
}

func (m *resultModal) View(width, height int) string {
	st := m.env.St
	head := st.Heading.Render(textsafe.SanitizeLine(m.title))
	switch {
	case m.tag != "":
		head += "  " + st.Muted.Render(m.tag)
	case m.cancelled:
		head += "  " + st.Warn.Render("cancelled")
	case m.isErr:
		head += "  " + st.Bad.Render("✗ error")
	default:
		head += "  " + st.Good.Render("✓ done")
	}
	lines := m.view(width)
	h := max(height-2, 1)
	m.offset = min(m.offset, max(len(lines)-h, 0))
	body := lines[m.offset:min(m.offset+h, len(lines))]
	return head + "\n\n" + strings.Join(body, "\n")
}
