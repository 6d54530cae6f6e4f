package ui

import (
	"context"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/engine/latest"
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
// the TUI. The
// engine calls Elicit from its own goroutine; Elicit hands the request to the
// program and waits there (never in Update) for the person's answer, the
// request's context, or Close.
type ElicitBridge struct {
	reqs      chan *elicitation
	samples   chan *sampleAsk // sampling requests, see samplebridge.go
	done      chan struct{}
	closeOnce sync.Once
}

// asked is one request (elicitation, sampling) waiting for the person.
type asked[Req, Resp any] struct {
	ctx   context.Context
	req   Req
	reply chan Resp // buffered(1): answering never blocks Update
	once  sync.Once
	gone  chan struct{} // closed once answered
}

// answer sends r unless an answer was already given.
func (a *asked[Req, Resp]) answer(r Resp) {
	a.once.Do(func() {
		a.reply <- r
		close(a.gone)
	})
}

// elicitation is one elicitation request waiting for an answer.
type elicitation = asked[engine.ElicitRequest, engine.ElicitResponse]

// ask hands req to the program over ch and waits for the answer; ctx or
// the bridge's Close end the wait with fallback.
func ask[Req, Resp any](b *ElicitBridge, ch chan *asked[Req, Resp], ctx context.Context, req Req, fallback Resp) (Resp, error) {
	a := &asked[Req, Resp]{ctx: ctx, req: req, reply: make(chan Resp, 1), gone: make(chan struct{})}
	select {
	case ch <- a:
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

// watchAsked reports, as gone(a), when the request's context ends before
// the person answers.
func watchAsked[Req, Resp any](a *asked[Req, Resp], gone func(*asked[Req, Resp]) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-a.ctx.Done():
			return gone(a)
		case <-a.gone:
			return nil
		}
	}
}

// elicitMsg delivers a request to Update.
type elicitMsg struct{ e *elicitation }

// elicitGoneMsg says a shown request's context ended (the server gave up).
type elicitGoneMsg struct{ e *elicitation }

// NewElicitBridge returns a bridge; pass its Elicit method as the engine's
// Options.Elicit and the bridge itself as the TUI's Options.Elicit.
func NewElicitBridge() *ElicitBridge {
	return &ElicitBridge{reqs: make(chan *elicitation), samples: make(chan *sampleAsk), done: make(chan struct{})}
}

// Elicit asks the person through the TUI and waits for the answer. It never
// imposes a time limit of its own: only ctx or Close end the wait, and both
// answer "cancel".
func (b *ElicitBridge) Elicit(ctx context.Context, req engine.ElicitRequest) (engine.ElicitResponse, error) {
	return ask(b, b.reqs, ctx, req, engine.ElicitResponse{Action: "cancel"})
}

// Close makes every waiting and future Elicit answer "cancel": call it when
// the TUI has exited.
func (b *ElicitBridge) Close() { b.closeOnce.Do(func() { close(b.done) }) }

// wait is the Cmd that takes the next request from the engine.
func (b *ElicitBridge) wait() tea.Cmd {
	return func() tea.Msg {
		select {
		case e := <-b.reqs:
			return elicitMsg{e: e}
		case a := <-b.samples:
			return sampleMsg{a: a}
		case <-b.done:
			return nil
		}
	}
}

// watchGone reports when the request's context ends before the person answers.
func watchGone(e *elicitation) tea.Cmd {
	return watchAsked(e, func(e *elicitation) tea.Msg { return elicitGoneMsg{e: e} })
}

// progressRelay hands a running call's progress notifications from the
// engine's goroutine to the program, keeping only the latest (engine/latest).
type progressRelay struct{ c *latest.Chan[engine.Progress] }

func newProgressRelay() *progressRelay { return &progressRelay{c: latest.New[engine.Progress]()} }

func (r *progressRelay) send(p engine.Progress) { r.c.Send(p) }

func (r *progressRelay) close() { r.c.Close() }

// progressMsg is one progress notification of call id.
type progressMsg struct {
	id int
	p  engine.Progress
}

func (r *progressRelay) wait(id int) tea.Cmd {
	return func() tea.Msg {
		p, ok := <-r.c.Out()
		if !ok {
			return nil
		}
		return progressMsg{id: id, p: p}
	}
}
