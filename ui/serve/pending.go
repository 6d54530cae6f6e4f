package serve

import (
	"cmp"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/lock"
)

// pendingTTL is how long a call waits for its agent to continue it after an
// input-required answer; maxPending is how many calls may wait at once.
// Past either, a call is cancelled: its engine call (and the server's
// request) are released.
const (
	pendingTTL = 10 * time.Minute
	maxPending = 32
)

// Errors a retry with a requestState can get, as JSON-RPC errors.
var (
	ErrUnknownRequestState = errors.New("mcpdeck serve has no call waiting for this requestState")
	ErrOtherRequestState   = errors.New("this requestState belongs to another request")
	ErrTooManyWaiting      = errors.New("too many calls are waiting for answers")
)

// pending holds the calls waiting for their agent's answers, each under an
// unguessable request state that one retry consumes.
type pending struct {
	ttl time.Duration
	max int

	mu      sync.Mutex
	byState map[string]*parked
	closed  bool
	seq     uint64 // parks so far, to find the oldest
}

// parked is one waiting call and the timer that abandons it.
type parked struct {
	r     *relay
	timer *time.Timer
	seq   uint64
}

func newPending(ttl time.Duration, limit int) *pending {
	return &pending{ttl: ttl, max: limit, byState: map[string]*parked{}}
}

// park files r under a fresh request state until take returns it, or the
// TTL passes and r is abandoned. At the limit (or once closed) r is not
// parked and the error says why; the caller abandons it.
func (p *pending) park(r *relay) (string, error) {
	state := rand.Text() // 128 bits from crypto/rand
	var err error
	lock.With(&p.mu, func() {
		if p.closed {
			err = errors.New("mcpdeck serve is stopping")
			return
		}
		if len(p.byState) >= p.max {
			err = fmt.Errorf("%w (%d): answer or cancel one first", ErrTooManyWaiting, p.max)
			return
		}
		p.seq++
		p.byState[state] = &parked{r: r, timer: time.AfterFunc(p.ttl, func() { p.expire(state) }), seq: p.seq}
	})
	if err != nil {
		return "", err
	}
	return state, nil
}

// makeRoom abandons the oldest calls of server waiting for answers until
// those left hold at most keep of the server's places in the engine (a
// question waits in each: engine.MaxPendingAsks at most), and returns
// them. Calls an agent never continued would otherwise make every new
// call's questions be declined until they expire; a new call wins over
// the oldest unanswered ones.
func (p *pending) makeRoom(server string, keep int) []*relay {
	var out []*relay
	lock.With(&p.mu, func() { out = p.oldestHeld(server, keep) })
	for _, r := range out {
		r.abandon(fmt.Errorf("a newer call to %s needed its place (calls waiting for answers may hold %d of its questions)", server, keep))
	}
	return out
}

// oldestHeld is makeRoom's choice, holding p.mu: it takes the oldest
// calls of server out until those left hold at most keep places.
func (p *pending) oldestHeld(server string, keep int) []*relay {
	var mine []string
	held := 0
	for state, w := range p.byState {
		if w.r.server == server {
			mine = append(mine, state)
			held += int(w.r.holding.Load())
		}
	}
	slices.SortFunc(mine, func(a, b string) int { return cmp.Compare(p.byState[a].seq, p.byState[b].seq) })
	var out []*relay
	for _, state := range mine {
		if held <= keep {
			break
		}
		w := p.byState[state]
		w.timer.Stop()
		delete(p.byState, state)
		held -= int(w.r.holding.Load())
		out = append(out, w.r)
	}
	return out
}

// expire abandons the call under state if it is still waiting.
func (p *pending) expire(state string) {
	var w *parked
	var ok bool
	lock.With(&p.mu, func() {
		w, ok = p.byState[state]
		delete(p.byState, state)
	})
	if ok {
		w.r.abandon(fmt.Errorf("the agent did not continue it within %v", p.ttl))
	}
}

// take removes and returns the call under state when it was parked for
// this agent and request; a state that names nothing, or another agent's
// call, is unknown. A state for another request stays parked.
func (p *pending) take(state, agent string, key requestKey) (r *relay, err error) {
	lock.With(&p.mu, func() { r, err = p.takeHeld(state, agent, key) })
	return r, err
}

// takeHeld is take, holding p.mu.
func (p *pending) takeHeld(state, agent string, key requestKey) (*relay, error) {
	w, ok := p.byState[state]
	if !ok || w.r.agent != agent {
		return nil, fmt.Errorf("%w (answered already, cancelled, or not continued within %v): send the request again without requestState",
			ErrUnknownRequestState, p.ttl)
	}
	if w.r.key != key {
		return nil, fmt.Errorf("%w (%s), not %s", ErrOtherRequestState, w.r.key, key)
	}
	w.timer.Stop()
	delete(p.byState, state)
	return w.r, nil
}

// close abandons every waiting call and parks no more.
func (p *pending) close() {
	var all map[string]*parked
	lock.With(&p.mu, func() {
		all = p.byState
		p.byState, p.closed = map[string]*parked{}, true
	})
	for _, w := range all {
		w.timer.Stop()
		w.r.abandon(errors.New("mcpdeck serve stopped"))
	}
}
