package ui

import (
	"context"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/engine/latest"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// snapshotMsg carries a new engine snapshot into Update.
type snapshotMsg struct{ snap engine.Snapshot }

// updatesClosedMsg says the engine closed its Updates channel (it shut down).
type updatesClosedMsg struct{}

// waitSnapshot is the one bridge from the engine to the program: a Cmd that
// waits for the next snapshot. Update re-issues it after every snapshotMsg.
// The engine's channel keeps only the latest snapshot, so a burst of changes
// arrives as one message and never queues up behind input.
func waitSnapshot(ch <-chan engine.Snapshot) tea.Cmd {
	return func() tea.Msg {
		s, ok := <-ch
		if !ok {
			return updatesClosedMsg{}
		}
		return snapshotMsg{snap: s}
	}
}

// ElicitBridge carries the engine's elicitation and sampling requests into
// the TUI. The engine calls Elicit (or Sample) from its own goroutine; it
// hands the request to the program and waits there (never in Update) for
// the person's answer, the request's context, or Close.
type ElicitBridge struct {
	asks      chan askMsg // a request, with its prompt
	done      chan struct{}
	closeOnce sync.Once
}

// asked is one request (elicitation, sampling) waiting for the person.
// Its prompt answers it (Answers returns it), so the root finds the
// prompt of a withdrawn request by it.
type asked[Req, Resp any] struct {
	ctx      context.Context
	req      Req
	fallback Resp      // the answer when nobody gives one: the person quit, the bridge closed
	reply    chan Resp // buffered(1): answering never blocks Update
	once     sync.Once
	gone     chan struct{} // closed once answered
}

// Answer sends r unless an answer was already given.
func (a *asked[Req, Resp]) Answer(r Resp) {
	a.once.Do(func() {
		a.reply <- r
		close(a.gone)
	})
}

// Abandon answers with the fallback: the person quit.
func (a *asked[Req, Resp]) Abandon() { a.Answer(a.fallback) }

// Request is what the server asks.
func (a *asked[Req, Resp]) Request() Req { return a.req }

// askMsg delivers a request to Update: open builds its prompt, gone
// reports its withdrawal.
type askMsg struct {
	open func(e *env) (tuikit.Modal, tea.Cmd)
	gone tea.Cmd
}

// withdrawnMsg says a shown request's context ended (the server gave up):
// its prompt, the one answering q, closes and line says why.
type withdrawnMsg struct {
	q    any
	line string
}

// elicitation is one elicitation request waiting for an answer.
type elicitation = asked[engine.ElicitRequest, engine.ElicitResponse]

// ask hands req to the program, with its prompt (open) and the status
// line of its withdrawal, and waits for the answer; ctx or the bridge's
// Close end the wait with fallback.
func ask[Req, Resp any](ctx context.Context, b *ElicitBridge, req Req, fallback Resp, open func(*env, *asked[Req, Resp]) (tuikit.Modal, tea.Cmd), withdrawn string) (Resp, error) {
	a := &asked[Req, Resp]{ctx: ctx, req: req, fallback: fallback, reply: make(chan Resp, 1), gone: make(chan struct{})}
	msg := askMsg{
		open: func(e *env) (tuikit.Modal, tea.Cmd) { return open(e, a) },
		gone: watchAsked(a, withdrawnMsg{q: a, line: withdrawn}),
	}
	select {
	case b.asks <- msg:
	case <-ctx.Done():
		return fallback, ctx.Err()
	case <-b.done:
		return fallback, nil
	}
	select {
	case r := <-a.reply:
		return r, nil
	case <-ctx.Done():
		return fallback, ctx.Err()
	case <-b.done:
		return fallback, nil
	}
}

// watchAsked reports, as gone, when the request's context ends before
// the person answers.
func watchAsked[Req, Resp any](a *asked[Req, Resp], gone tea.Msg) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-a.ctx.Done():
			return gone
		case <-a.gone:
			return nil
		}
	}
}

// NewElicitBridge returns a bridge; pass its Elicit and Sample methods as
// the engine's Options.Elicit and Options.Sample, and the bridge itself as
// the TUI's Options.Elicit.
func NewElicitBridge() *ElicitBridge {
	return &ElicitBridge{asks: make(chan askMsg), done: make(chan struct{})}
}

// Elicit asks the person through the TUI and waits for the answer. It never
// imposes a time limit of its own: only ctx or Close end the wait, and both
// answer "cancel".
func (b *ElicitBridge) Elicit(ctx context.Context, req engine.ElicitRequest) (engine.ElicitResponse, error) {
	return ask(ctx, b, req, engine.ElicitResponse{Action: "cancel"}, newElicitModal, req.Server+" withdrew its request")
}

// Close makes every waiting and future Elicit answer "cancel": call it when
// the TUI has exited.
func (b *ElicitBridge) Close() { b.closeOnce.Do(func() { close(b.done) }) }

// wait is the Cmd that takes the next request from the engine.
func (b *ElicitBridge) wait() tea.Cmd {
	return func() tea.Msg {
		select {
		case a := <-b.asks:
			return a
		case <-b.done:
			return nil
		}
	}
}

// progressRelay hands a running call's progress notifications from the
// engine's goroutine to the program, keeping only the latest (engine/latest).
type progressRelay struct{ c *latest.Chan[engine.Progress] }

func newProgressRelay() *progressRelay { return &progressRelay{c: latest.New[engine.Progress]()} }

func (r *progressRelay) send(p engine.Progress) { r.c.Send(p) }

func (r *progressRelay) close() { r.c.Close() }

// progressMsg is one progress notification of call id; every open modal
// is given it (the running call may be under a prompt).
type progressMsg struct {
	id int
	p  engine.Progress
}

func (progressMsg) Broadcast() {}

func (r *progressRelay) wait(id int) tea.Cmd {
	return func() tea.Msg {
		p, ok := <-r.c.Out()
		if !ok {
			return nil
		}
		return progressMsg{id: id, p: p}
	}
}
