package engine

import (
	"cmp"
	"slices"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/latest"
)

// publisher hands snapshots to one reader through a latest-wins channel
// (engine/latest): a new snapshot replaces one the reader has not taken yet,
// so a slow reader sees the latest state and the engine never blocks on it.
type publisher struct {
	c  *latest.Chan[Snapshot]
	ch <-chan Snapshot // what Updates returns
}

func newPublisher() *publisher {
	c := latest.New[Snapshot]()
	return &publisher{c: c, ch: c.Out()}
}

// publish replaces any unread snapshot with s; it never blocks.
func (p *publisher) publish(s Snapshot) { p.c.Send(s) }

// close ends the channel after a final snapshot, so readers' range loops end.
func (p *publisher) close() { p.c.Close() }

// publishLocked sends a new snapshot built from every entry. Unchanged
// slices are shared with the previous snapshot; callers hold e.mu.
func (e *Engine) publishLocked() {
	if e.closed && e.last.Seq > 0 && e.ctx.Err() != nil {
		return
	}
	if e.batching {
		return // Reload publishes once at the end
	}
	if e.toolsDirty { // lists changed since the last publish: collisions may have too
		markCollisions(e.order)
		e.toolsDirty = false
	}
	e.seq++
	s := Snapshot{Seq: e.seq, At: time.Now(), Servers: make([]ServerSnapshot, len(e.order))}
	for i, en := range e.order {
		en.snapshot(&s.Servers[i])
	}
	if e.res != nil {
		s.Problems = e.res.Problems
	}
	s.Warnings = e.warnings
	if e.res != nil && e.res.Untrusted != nil && !e.res.Untrusted.Told {
		s.Warnings = append(slices.Clip(s.Warnings), e.res.Untrusted.Notice())
	}
	if e.opts.Auth != nil {
		if w := e.opts.Auth.Warnings(); len(w) > 0 {
			s.Warnings = append(slices.Clip(s.Warnings), w...)
		}
	}
	e.last = s
	e.pub.publish(s)
	close(e.changed) // wake internal waiters (reconnectFor)
	e.changed = make(chan struct{})
}

// snapshot is the one place a server's snapshot is assembled: each field
// from the part that owns it. The lifecycle fields are the reducer's
// (lifecycle.State.Shown), with the definition's standing reasons
// (blockers); the UIs word both (ui/status). Callers hold e.mu.
func (en *entry) snapshot(s *ServerSnapshot) {
	l, d, c := en.st.Shown(), &en.def, en.conn.info
	*s = ServerSnapshot{
		Name: en.srv.Name, Scope: en.srv.Scope, Source: en.srv.Source, Overrides: en.srv.Overrides,
		Transport: d.transport, Config: d.config, Written: d.written, Sandbox: d.sandbox, RunsIn: d.runsIn, Target: d.target, Hash: en.srv.Hash,
		Enabled: en.srv.Enabled, Approval: en.srv.Approval, Policy: en.srv.Policy, Problems: en.srv.Problems,
		SamplingDecision: en.srv.Sampling, Editor: en.srv.Editor,

		State: l.State, Reason: l.Reason, History: l.History,
		Attempt: l.Attempt, MaxAttempts: l.MaxAttempts, NextRetry: l.NextRetry,
		Error: l.Error, ErrorDetail: l.ErrorDetail, ErrorClass: l.ErrorClass, ExitCode: l.ExitCode,
		Blockers: en.blockers, Runnable: en.st.Runnable(),

		AuthURL: en.conn.authURL, StderrTail: en.conn.stderr,
		ServerInfo: c.server, ProtocolVersion: c.protocol, Instructions: c.instructions, Subscriptions: c.subscriptions,

		Tools: en.lists.tools, Resources: en.lists.resources, Templates: en.lists.templates,
		Prompts: en.lists.prompts, Skills: en.lists.skills, Pins: en.pins.report, Remembered: en.memory.lists,

		Logs: en.logs.shown, LogErrors: en.logs.errors,
		Traffic: en.logs.traffic.shown, TrafficDropped: en.logs.traffic.shownDropped,
		Refusals: en.logs.refusals,

		Sampling: en.asks.sampled, Flood: en.asks.flood,
		Watched: en.watch.shown,
	}
}

// sortEntries orders entries by scope (high first), then name.
func sortEntries(es []*entry) {
	slices.SortFunc(es, func(a, b *entry) int {
		if c := cmp.Compare(b.srv.Scope, a.srv.Scope); c != 0 {
			return c
		}
		return cmp.Compare(a.srv.Name, b.srv.Name)
	})
}
