package serve

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine"
)

// An agent on protocol 2026-07-28 cannot be sent requests: a server that
// asks for input answers the request "input required" with its questions
// and an opaque requestState, and the agent sends the same request again
// with its answers and that state. A relay is one such agent request whose
// engine call may ask for input (a server's elicitation or sampling): the
// call runs on its own goroutine, each question it asks ends the agent's
// request with an input-required answer (the call stays blocked in the
// engine's callback), and the retry delivers the answers and waits for the
// call's next question or its end.

// requestKey names the request a retry must repeat.
type requestKey struct {
	method mcp.MCPMethod
	name   string // tool or prompt name, resource URI
}

func (k requestKey) String() string { return string(k.method) + " " + k.name }

// relay is one agent request whose call may ask the agent for input.
type relay struct {
	key    requestKey
	server string
	agent  string // who may continue it (agentOf)

	ctx    context.Context // the engine call's: cancelling it ends the call
	cancel context.CancelCauseFunc
	asks   chan *question // the call's questions, from the engine's callbacks
	final  chan outcome   // the call's end (buffered: nobody may be waiting)
	done   chan struct{}  // closed when the engine call returned (its places released)

	// holding counts the call's questions waiting in the engine's
	// callbacks: each holds one of the server's engine.MaxPendingAsks.
	holding atomic.Int32

	mu    sync.Mutex
	caps  mcp.ClientCapabilities // what the latest request declared
	att   *attachment            // the latest agent request: progress goes to it
	asked map[string]*question   // put to the agent, not answered yet
	n     int                    // questions asked so far, for their ids

	// The server's input-required round being gathered: its keys not yet
	// put to the agent nor settled by the engine, and where the engine
	// says which it settled (engine.InputKey).
	waiting map[string]bool
	settled <-chan string
}

// attachment is the latest agent request of a relay. Progress goes to it,
// also after it got its answer: a server's progress may come after its
// result, and over stdio it still reaches the agent (as for a call that is
// not relayed).
type attachment struct {
	ctx   context.Context
	token mcp.ProgressToken
}

// question is one request for input, waiting for its answer.
type question struct {
	req    mcp.InputRequest
	in     engine.InputKey        // its place in the server's round, if any
	answer chan mcp.InputResponse // buffered: answered once
}

// outcome is how the engine call ended.
type outcome struct {
	res any
	err error
}

// step is what one agent request gets: the call's end (res, err) or, with
// ask set, more questions.
type step struct {
	outcome
	ask *mcp.MultiRoundTripResult
}

// errAbandoned is the cause of a call its agent did not continue.
var errAbandoned = errors.New("mcpdeck serve cancelled the call")

// relayable says whether the agent request in ctx is on 2026-07-28 and
// declared it can answer elicitation or sampling.
func relayable(ctx context.Context) bool {
	info := server.RequestProtocolInfoFromContext(ctx)
	if info == nil || !info.Modern || info.ClientCapabilities == nil {
		return false
	}
	return info.ClientCapabilities.Elicitation != nil || info.ClientCapabilities.Sampling != nil
}

// agentKey carries, in an HTTP request's context, the digest of the bearer
// token it came with.
type agentKey struct{}

// agentOf is who sent the request in ctx: its session (stdio) and bearer
// token digest (HTTP), as far as there are any.
func agentOf(ctx context.Context) string {
	id := ""
	if s := server.ClientSessionFromContext(ctx); s != nil {
		id = s.SessionID()
	}
	tok, _ := ctx.Value(agentKey{}).(string)
	return id + "|" + tok
}

// startRelay runs the engine call run for the agent request in ctx on its
// own goroutine and returns its first step.
func (qs *questions) startRelay(ctx context.Context, key requestKey, srv string, meta *mcp.Meta, run func(context.Context, func(engine.Progress)) (any, error)) step {
	rctx, cancel := context.WithCancelCause(qs.g.base)
	r := &relay{
		key: key, server: srv, agent: agentOf(ctx), ctx: rctx, cancel: cancel,
		asks: make(chan *question), final: make(chan outcome, 1), done: make(chan struct{}), asked: map[string]*question{},
	}
	// Calls of srv its agents never continued give up their places first.
	for _, old := range qs.pending.makeRoom(srv, engine.MaxPendingAsks/2) {
		select {
		case <-old.done:
		case <-ctx.Done():
		}
	}
	r.attach(ctx, meta)
	var progress func(engine.Progress)
	if meta != nil && meta.ProgressToken != nil {
		progress = r.progress(qs.g.routes)
	}
	qs.g.wg.Go(func() {
		callCtx, end := qs.g.routes.begin(rctx, srv, r)
		res, err := run(callCtx, progress)
		end()
		close(r.done)
		r.final <- outcome{res, err}
		cancel(nil) // release a question still waiting
	})
	return qs.round(ctx, r)
}

// resume delivers a retry's answers to the call its requestState names and
// returns the call's next step.
func (qs *questions) resume(ctx context.Context, key requestKey, meta *mcp.Meta, p mcp.MultiRoundTripParams) (step, string, error) {
	r, err := qs.pending.take(p.RequestState, agentOf(ctx), key)
	if err != nil {
		return step{}, "", err
	}
	r.attach(ctx, meta)
	r.deliver(p.InputResponses)
	return qs.round(ctx, r), r.server, nil
}

// round waits for the call's next event while the agent request in ctx
// waits: the end (also when questions were left unanswered: they are moot),
// or questions (with those still unanswered; a server's round whole, under
// the server's keys), which park the call under a
// new request state (too many parked: the call is cancelled and its end
// says why). The agent cancelling the request cancels the call.
func (qs *questions) round(ctx context.Context, r *relay) step {
	select {
	case o := <-r.final:
		return step{outcome: o}
	default:
	}
	if !r.unanswered() {
		select {
		case o := <-r.final:
			return step{outcome: o}
		case q := <-r.asks:
			r.add(q)
		case <-ctx.Done():
		}
	}
	if o, ended := r.gather(ctx); ended {
		return step{outcome: o}
	}
	if ctx.Err() != nil {
		r.abandon(context.Cause(ctx))
		return step{outcome: outcome{err: ctx.Err()}}
	}
	state, err := qs.pending.park(r)
	if err != nil {
		r.abandon(err)
		return step{outcome: outcome{err: err}}
	}
	return step{ask: &mcp.MultiRoundTripResult{InputRequests: r.questions(), RequestState: state}}
}
