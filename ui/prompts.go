package ui

import (
	"context"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/styles"
)

// approvalModal asks about project servers that are new or changed since
// approval, one at a time, showing the full command or URL and the diff.
type approvalModal struct {
	env     *env
	servers []engine.ServerSnapshot
	i       int
}

func (m *approvalModal) Help() []key.Binding {
	k := m.env.keys
	return []key.Binding{k.ApproveOne, k.ApproveAll, k.RejectOne, k.Later}
}

// prune drops the servers still to be asked about that no longer wait for
// approval (decided elsewhere, e.g. with the CLI, or removed), and refreshes
// the others; the one on screen stays so the person's key press is not lost.
func (m *approvalModal) prune(find func(string) *engine.ServerSnapshot) {
	kept := m.servers[:m.i+1]
	for _, s := range m.servers[m.i+1:] {
		if cur := find(s.Name); cur != nil && needsApproval(*cur) {
			kept = append(kept, *cur)
		}
	}
	m.servers = kept
}

func (m *approvalModal) next() (modal, tea.Cmd) {
	m.i++
	if m.i >= len(m.servers) {
		return nil, nil
	}
	return m, nil
}

func (m *approvalModal) Update(msg tea.Msg) (modal, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	k := m.env.keys
	cur := m.servers[m.i].Name
	switch {
	case key.Matches(km, k.ApproveOne):
		nm, _ := m.next()
		return nm, engineAction(m.env.ctx, m.env.eng, actApprove, cur)
	case key.Matches(km, k.ApproveAll):
		return nil, engineAction(m.env.ctx, m.env.eng, actApprove, "all")
	case key.Matches(km, k.RejectOne):
		nm, _ := m.next()
		return nm, engineAction(m.env.ctx, m.env.eng, actReject, cur)
	case key.Matches(km, k.Later):
		return nil, nil
	}
	return m, nil
}

func (m *approvalModal) View(width, height int) string {
	st := m.env.st
	s := &m.servers[m.i]
	var lines []string
	title := "New project server"
	if s.Approval.Status == model.ApprovalChanged {
		title = "Project server changed since you approved it"
	}
	if len(m.servers) > 1 {
		title += st.Muted.Render(" (" + itoa(m.i+1) + " of " + itoa(len(m.servers)) + ")")
	}
	lines = append(lines, st.Heading.Render(title), "")
	lines = append(lines, st.Title.Render(s.Name)+st.Muted.Render(" · "+string(s.Transport)+" · from "+s.Source))
	lines = append(lines, "", "It will run:")
	lines = append(lines, strings.Split(wordwrap(st.Code.Render(s.Target), max(width-4, 10)), "\n")...)
	if s.Approval.Status == model.ApprovalChanged && s.Approval.Diff != "" {
		lines = append(lines, "", "What changed:")
		lines = append(lines, diffLines(st, s.Approval.Diff)...)
	}
	lines = append(lines, "", "Only approve servers from repositories you trust.")
	lines = append(lines, st.Key.Render("a")+" approve  "+st.Key.Render("A")+" approve all  "+st.Key.Render("x")+" reject  "+st.Key.Render("esc")+" decide later")
	return panel(st, lines, width, height)
}

// newElicitModal returns the prompt for an elicitation request.
func newElicitModal(e *env, el *elicitation) (modal, tea.Cmd) {
	if el.req.Mode == "url" {
		return &urlModal{env: e, el: el}, nil
	}
	sf, err := newSchemaForm(el.req.Schema)
	if err != nil {
		el.answer(engine.ElicitResponse{Action: "decline"})
		return nil, nil
	}
	intro := []string{e.st.Muted.Render(el.req.Server + " asks:"), el.req.Message}
	fm := newFormModal(e, "Request from "+el.req.Server, intro, sf)
	fm.elicit = el
	fm.submit = func(args map[string]any) (modal, tea.Cmd) {
		el.answer(engine.ElicitResponse{Action: "accept", Content: args})
		return nil, nil
	}
	fm.cancel = func() (modal, tea.Cmd) {
		el.answer(engine.ElicitResponse{Action: "cancel"})
		return nil, nil
	}
	fm.decline = func() (modal, tea.Cmd) {
		el.answer(engine.ElicitResponse{Action: "decline"})
		return nil, nil
	}
	return fm, fm.init()
}

// urlModal is a URL elicitation: the URL is shown in full for copying, o
// opens it, enter says "done" so the server can continue.
type urlModal struct {
	env    *env
	el     *elicitation
	status string
}

// openedMsg reports the end of an attempt to open a browser.
type openedMsg struct{ err error }

func (m *urlModal) Help() []key.Binding {
	k := m.env.keys
	done := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "done"))
	return []key.Binding{k.OpenURL, done, k.Decline, k.Cancel}
}

func (m *urlModal) Update(msg tea.Msg) (modal, tea.Cmd) {
	switch msg := msg.(type) {
	case openedMsg:
		if msg.err != nil {
			m.status = "could not open a browser: " + msg.err.Error() + " — copy the URL instead"
		} else {
			m.status = "opened in your browser; press enter when you are done"
		}
	case tea.KeyMsg:
		k := m.env.keys
		switch {
		case key.Matches(msg, k.OpenURL):
			open, u, ctx := m.env.openURL, m.el.req.URL, m.env.ctx
			m.status = "opening…"
			return m, func() tea.Msg { return openedMsg{err: open(ctx, u)} }
		case key.Matches(msg, k.Submit):
			m.el.answer(engine.ElicitResponse{Action: "accept"})
			return nil, nil
		case key.Matches(msg, k.Decline):
			m.el.answer(engine.ElicitResponse{Action: "decline"})
			return nil, nil
		case key.Matches(msg, k.Cancel):
			m.el.answer(engine.ElicitResponse{Action: "cancel"})
			return nil, nil
		}
	}
	return m, nil
}

func (m *urlModal) View(width, height int) string {
	st := m.env.st
	var lines []string
	lines = append(lines, st.Heading.Render(m.el.req.Server+" needs you to visit a page"), "")
	lines = append(lines, strings.Split(wordwrap(m.el.req.Message, max(width-4, 10)), "\n")...)
	lines = append(lines, "")
	// the URL is hard-wrapped with no ellipsis so it can be copied whole
	lines = append(lines, strings.Split(wordwrap(st.Accent.Render(m.el.req.URL), max(width-4, 10)), "\n")...)
	lines = append(lines, "", st.Key.Render("o")+" open in browser  "+st.Key.Render("enter")+" done  "+st.Key.Render("ctrl+d")+" decline  "+st.Key.Render("esc")+" cancel")
	if m.status != "" {
		lines = append(lines, st.Muted.Render(m.status))
	}
	return panel(st, lines, width, height)
}

// panel draws lines in a bordered box that fits width×height: lines are
// wrapped to the width, and when they are too many the middle is cut (the
// first lines say what is asked, the last ones how to answer).
func panel(st *styles.Styles, lines []string, width, height int) string {
	inner := max(width-4, 10)
	var wrapped []string
	for _, l := range lines {
		wrapped = append(wrapped, strings.Split(wordwrap(l, inner), "\n")...)
	}
	if room := height - 2; len(wrapped) > room {
		dense := wrapped[:0:0]
		for _, l := range wrapped {
			if strings.TrimSpace(l) != "" {
				dense = append(dense, l)
			}
		}
		wrapped = dense
	}
	if room := height - 2; len(wrapped) > room && room >= 3 {
		head := room / 2
		tail := room - head - 1
		cut := append(append(wrapped[:head:head], st.Muted.Render("…")), wrapped[len(wrapped)-tail:]...)
		wrapped = cut
	}
	return st.Panel.Width(max(width-2, 10)).Render(strings.Join(wrapped, "\n"))
}

// errBadURL is returned for a URL that is not http(s).
var errBadURL = errors.New("only http and https URLs are opened")

// OpenBrowser opens u with $BROWSER, open (macOS), rundll32 (Windows) or
// xdg-open; only http(s) URLs, never through a shell.
func OpenBrowser(ctx context.Context, u string) error {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") {
		return errBadURL
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var cmd *exec.Cmd
	switch {
	case os.Getenv("BROWSER") != "":
		cmd = exec.CommandContext(ctx, os.Getenv("BROWSER"), u)
	case runtime.GOOS == "darwin":
		cmd = exec.CommandContext(ctx, "open", u)
	case runtime.GOOS == "windows":
		cmd = exec.CommandContext(ctx, "rundll32", "url.dll,FileProtocolHandler", u)
	default:
		cmd = exec.CommandContext(ctx, "xdg-open", u)
	}
	return cmd.Run()
}

func itoa(i int) string { return strconv.Itoa(i) }
