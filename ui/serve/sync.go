package serve

import (
	"context"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/engine/lock"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// syncer is the part that follows the engine: it applies each snapshot
// (lists decides what it offers), tells the person what changed, and says
// how far it got (caughtUp). mu is held while a snapshot is applied, from
// the exposure built to mcp-go's lists set, so snapshots are applied one
// at a time and in order; what it keeps is guarded by it.
type syncer struct {
	g *Gateway

	mu      sync.Mutex
	applied uint64 // the last snapshot whose lists are set

	told      map[string]bool        // notes already written
	floods    map[string]int         // each server's burst of declined requests last noted (AskFlood.Seq)
	lastKinds map[string]status.Kind // each offered server's last kind, for notes
	// judging is set while --prefix never waits to judge the names at
	// start (judgeClashes): a clash then goes into its error, not a note.
	judging bool
}

// follow applies every snapshot the engine publishes, until it closes.
func (s *syncer) follow() {
	for snap := range s.g.eng.Updates() {
		s.apply(snap)
	}
}

// apply offers what snap holds. Only a list that changed is set again, and
// setting it sends the agent that list's list_changed notification. From
// the exposure built to the last list set in mcp-go, a call of a name not
// offered waits for it (caughtUp, explainNotOffered).
func (s *syncer) apply(snap engine.Snapshot) {
	lock.With(&s.mu, func() {
		s.applyHeld(snap)
		s.applied = max(s.applied, snap.Seq)
	})
}

// applyHeld is apply, holding s.mu.
func (s *syncer) applyHeld(snap engine.Snapshot) {
	g := s.g
	t, ok := g.lists.take(snap)
	if !ok {
		return
	}
	for _, n := range s.notes(snap, t.cur) {
		g.note(n)
	}
	g.sessions.sendUpdates(g.sessions.updated(snap))
	g.lists.offer(t)
	if t.settled {
		g.start.markSettled()
	}
	if t.ready {
		g.start.markReady()
	}
	g.changed.ring()
}

// notes are the lines to tell the person about this snapshot: an
// offered server whose kind changed (connected, failed…), each burst of a
// server's requests the engine declined (it lets engine.MaxPendingAsks
// wait, also for the agents serve asks), and each item left out, once.
// Callers hold s.mu.
func (s *syncer) notes(snap engine.Snapshot, x exposure) []string {
	var out []string
	for i := range snap.Servers {
		srv := &snap.Servers[i]
		if !s.g.f.server(srv.Name) {
			continue
		}
		if srv.Flood.Seq != 0 && srv.Flood.Seq != s.floods[srv.Name] {
			s.floods[srv.Name] = srv.Flood.Seq
			out = append(out, status.Flood(srv))
		}
		k := status.KindOf(srv)
		if old, seen := s.lastKinds[srv.Name]; seen && old == k {
			continue
		}
		s.lastKinds[srv.Name] = k
		if status.OutcomeOf(srv) == status.OutcomePending && k == status.Pending {
			continue // still connecting: say so once it settles
		}
		out = append(out, stateSentence(srv))
	}
	left := x.left
	if !s.judging { // while --prefix never judges the start, its error says the clashes
		for _, c := range x.clashes {
			left = append(left, c.note)
		}
	}
	for _, l := range left {
		if !s.told[l] {
			s.told[l] = true
			out = append(out, l)
		}
	}
	return out
}

// judgeClashes is --prefix never's judgement at start: the names two
// servers offer now. With none, judging ends and a later clash is a note;
// when there are some, judging stays on: the refusal's error says them,
// and a snapshot applied before the gateway closes must not list them too.
func (s *syncer) judgeClashes() (c []clash) {
	lock.With(&s.mu, func() {
		c = s.g.lists.clashes()
		if len(c) == 0 {
			s.judging = false
		}
	})
	return c
}

// caughtUpWait bounds how long a call waits for serve to apply the
// engine's latest snapshot (published every 200 ms at most while servers
// change).
const caughtUpWait = 2 * time.Second

// caughtUp waits until serve has applied the engine's snapshot of now,
// lists set in mcp-go included (at most caughtUpWait).
func (s *syncer) caughtUp(ctx context.Context) {
	want := s.g.eng.Snapshot().Seq
	limit := time.NewTimer(caughtUpWait)
	defer limit.Stop()
	for {
		ch := s.g.changed.wait() // taken first: an apply that ends after rings it
		var done bool
		lock.With(&s.mu, func() { done = s.applied >= want })
		if done {
			return
		}
		select {
		case <-ch:
		case <-limit.C:
			return
		case <-ctx.Done():
			return
		}
	}
}
