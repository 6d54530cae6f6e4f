package engine

import (
	"context"

	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
)

// refetch reloads one list in the background. A flood of list_changed
// notifications coalesces: while a refetch runs, further requests only mark
// the list dirty, and one more refetch follows.
func (p *listParts) refetch(server string, k listKind) {
	p.e.run.feedNamed(server, lifecycle.ListChanged{At: now(), List: int(k)})
}

// refetchLocked runs the refetch of list k the reducer asked for. Callers
// hold e.mu.
func (p *listParts) refetchLocked(en *entry, k listKind) {
	s := &en.lists
	if s.refetching[k] {
		s.dirty[k] = true
		return
	}
	s.refetching[k] = true
	conn, gen := en.conn.conn, en.st.Gen()
	name := en.srv.Name
	e := p.e
	e.wg.Go(func() {
		for again := true; again; {
			ctx, cancel := context.WithTimeout(e.ctx, e.set.connectTimeout)
			one := p.fetchList(ctx, name, conn.Client(), k)
			cancel()
			again = false
			e.locked(func() { again = p.refetched(en, gen, conn, k, one) })
		}
		e.memory.flush(name)
	})
}

// refetched applies one refetch of list k on connection gen and reports
// whether another must follow. Callers hold e.mu.
func (p *listParts) refetched(en *entry, gen uint64, conn session, k listKind, one lists) bool {
	e, s := p.e, &en.lists
	if e.closed || en.st.Gen() != gen || en.conn.conn != conn {
		s.refetching[k], s.dirty[k] = false, false
		return false
	}
	if one.fatal != nil { // the list grew over the size limit
		s.refetching[k], s.dirty[k] = false, false
		e.run.lostLocked(en, gen, one.fatal)
		return false
	}
	p.applyOneLocked(en, gen, k, one)
	again := s.dirty[k]
	s.dirty[k] = false
	if !again {
		s.refetching[k] = false
	}
	return again
}

// applyOneLocked applies list k, fetched alone on connection gen (a
// refetch, or a call's relist): marked and shown, and its problems, if
// any, on the server. Callers hold e.mu.
func (p *listParts) applyOneLocked(en *entry, gen uint64, k listKind, one lists) {
	var l lists
	mergeList(&l, one, k)
	p.mark(&l)
	problem, detail := p.problems(en, l)
	p.apply(en, l)
	p.e.run.feed(en, lifecycle.Listed{At: now(), Gen: gen, Problem: problem, Detail: detail}, nil)
}
