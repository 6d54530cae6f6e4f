package serve

import (
	"context"
	"fmt"
	"strconv"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/engine/lock"
)

// The relay's two sides: the engine's callbacks ask (and wait), the
// agent's requests attach, take the questions and deliver the answers.

// ask puts one request for input to the agent and waits for the answer;
// called by the engine's callbacks during the call.
func (r *relay) ask(ctx context.Context, req mcp.InputRequest, in engine.InputKey) (mcp.InputResponse, error) {
	r.holding.Add(1) // one of the server's places in the engine, until this returns
	defer r.holding.Add(-1)
	q := &question{req: req, in: in, answer: make(chan mcp.InputResponse, 1)}
	select {
	case r.asks <- q:
	case <-ctx.Done():
		return mcp.InputResponse{}, ctx.Err()
	case <-r.ctx.Done():
		return mcp.InputResponse{}, context.Cause(r.ctx)
	}
	select {
	case a := <-q.answer:
		return a, nil
	case <-ctx.Done():
		return mcp.InputResponse{}, ctx.Err()
	case <-r.ctx.Done():
		return mcp.InputResponse{}, context.Cause(r.ctx)
	}
}

// abandon cancels the call (its questions get why).
func (r *relay) abandon(why error) {
	r.cancel(fmt.Errorf("%w: %w", errAbandoned, why))
}

// attach records the agent request now waiting: its capabilities decide
// what the call's next questions may ask, and progress goes to it.
func (r *relay) attach(ctx context.Context, meta *mcp.Meta) {
	a := &attachment{ctx: ctx}
	if meta != nil {
		a.token = meta.ProgressToken
	}
	lock.With(&r.mu, func() {
		if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientCapabilities != nil {
			r.caps = *info.ClientCapabilities
		}
		r.att = a
	})
}

// capabilities are what the agent's latest request declared.
func (r *relay) capabilities() (caps mcp.ClientCapabilities) {
	lock.With(&r.mu, func() { caps = r.caps })
	return caps
}

// progress sends the call's progress to the latest agent request, under
// the token that request gave.
// attached is r's latest agent request, or nil.
func (r *relay) attached() (a *attachment) {
	lock.With(&r.mu, func() { a = r.att })
	return a
}

func (r *relay) progress(rs *routes) func(engine.Progress) {
	return func(p engine.Progress) {
		var a *attachment
		lock.With(&r.mu, func() { a = r.att })
		if a != nil && a.token != nil {
			rs.sendProgress(a.ctx, a.token, p)
		}
	}
}

// add gives q an id, the server's key when it has one, and records it as
// put to the agent; a question of a server's round not gathered yet starts
// gathering that round (gather).
func (r *relay) add(q *question) {
	lock.With(&r.mu, func() { r.addHeld(q) })
}

// addHeld is add, holding r.mu.
func (r *relay) addHeld(q *question) {
	r.n++
	id := q.in.Key
	if _, taken := r.asked[id]; id == "" || taken {
		id = "input-" + strconv.Itoa(r.n)
	}
	r.asked[id] = q
	if q.in.Settled == nil {
		return
	}
	if q.in.Settled != r.settled {
		r.settled, r.waiting = q.in.Settled, map[string]bool{}
		for _, k := range q.in.Keys {
			r.waiting[k] = true
		}
	}
	delete(r.waiting, q.in.Key)
}

// gather takes the questions already asked and, while a server's round is
// incomplete, waits for its other questions or for the engine to settle
// them (answered without the agent), so the agent gets the round whole; it
// returns the call's end instead when the call ends meanwhile. The agent's
// request ending stops the wait (round sees it).
func (r *relay) gather(ctx context.Context) (outcome, bool) {
	for {
		var settled <-chan string
		var missing bool
		lock.With(&r.mu, func() { settled, missing = r.settled, len(r.waiting) > 0 })
		if !missing {
			settled = nil // nothing to wait for: take what is there
		}
		select {
		case q := <-r.asks:
			r.add(q)
			continue
		case k := <-settled:
			r.settle(k)
			continue
		default:
		}
		if !missing {
			return outcome{}, false
		}
		select {
		case q := <-r.asks:
			r.add(q)
		case k := <-settled:
			r.settle(k)
		case o := <-r.final:
			return o, true
		case <-ctx.Done():
			return outcome{}, false
		}
	}
}

// settle records that the engine settled the server's key k itself.
func (r *relay) settle(k string) {
	lock.With(&r.mu, func() { delete(r.waiting, k) })
}

// unanswered reports whether questions put to the agent await answers.
func (r *relay) unanswered() (some bool) {
	lock.With(&r.mu, func() { some = len(r.asked) > 0 })
	return some
}

// questions are the requests for input still unanswered, by id.
func (r *relay) questions() (out mcp.InputRequests) {
	lock.With(&r.mu, func() {
		out = make(mcp.InputRequests, len(r.asked))
		for id, q := range r.asked {
			out[id] = q.req
		}
	})
	return out
}

// deliver hands each answer to the question it names; a question left
// unanswered is asked again in the next round, an unknown id is ignored.
func (r *relay) deliver(answers mcp.InputResponses) {
	lock.With(&r.mu, func() {
		for id, a := range answers {
			if q, ok := r.asked[id]; ok {
				q.answer <- a
				delete(r.asked, id)
			}
		}
	})
}
