package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine/lock"
	"github.com/mcpdeck/mcpdeck/transports"
)

// mcp-go answers a server's input-required round by calling the handler
// of each request concurrently, without the key the server gave it; the
// engine reads the round as it arrives (transports.TakeResult) and gives
// each request its key back, by its method and parameters, so a gateway
// can put the round to its agent as the server asked it.

// InputKey places a server's request for input in its call's round; the
// zero value is a request the server sent on its own.
type InputKey struct {
	Key  string   // the server's key for the request
	Keys []string // every key of the round, sorted
	// Settled receives each key of the round whose request the engine
	// finished with (answered, declined, failed): a gateway gathering the
	// round's questions stops waiting for those.
	Settled <-chan string
}

// A round is one question with several fields, so its requests share one
// of their server's MaxPendingAsks places however many there are
// (holdRound); these bound what one round may ask instead. A round beyond
// them ends its call (ErrRoundTooLarge), before the person is asked
// anything.
const (
	maxRoundInputs = 64
	maxRoundBytes  = 4 << 20 // the result that starts the round, encoded
)

// ErrRoundTooLarge ends a call whose server asked, in one input-required
// round, for more inputs than maxRoundInputs or more bytes than
// maxRoundBytes.
var ErrRoundTooLarge = errors.New("the server asked for too much input in one round")

// roundTooLarge is ErrRoundTooLarge with what the round held.
type roundTooLarge struct{ inputs, bytes int }

func (r roundTooLarge) Error() string {
	return fmt.Sprintf("the server asked for %d inputs (%s) in one round, more than mcpdeck answers at once (%d inputs, %s), so mcpdeck stopped the request",
		r.inputs, transports.FormatSize(r.bytes), maxRoundInputs, transports.FormatSize(maxRoundBytes))
}

// Is makes errors.Is(err, ErrRoundTooLarge) hold.
func (roundTooLarge) Is(target error) bool { return target == ErrRoundTooLarge }

// inputRound is the input-required round a call is in.
type inputRound struct {
	reqs     mcp.InputRequests
	keys     []string
	claimed  map[string]bool
	settled  chan string // buffered: one send per key
	tooLarge error       // roundTooLarge, or nil

	// place is the one ask place the round's requests share: holders
	// count those holding it, release gives it back.
	mu      sync.Mutex
	holders int
	release func()
}

// noteRound records the round a result of the call starts, when it is an
// input-required one; the result is returned as it came.
func (ic *inputCall) noteRound(raw json.RawMessage) json.RawMessage {
	var res struct {
		ResultType    string            `json:"resultType"`
		InputRequests mcp.InputRequests `json:"inputRequests"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || res.ResultType != string(mcp.ResultTypeInputRequired) || len(res.InputRequests) == 0 {
		return raw
	}
	r := &inputRound{reqs: res.InputRequests, claimed: map[string]bool{}, settled: make(chan string, len(res.InputRequests))}
	if n := len(res.InputRequests); n > maxRoundInputs || len(raw) > maxRoundBytes {
		r.tooLarge = roundTooLarge{inputs: n, bytes: len(raw)}
	}
	for k := range res.InputRequests {
		r.keys = append(r.keys, k)
	}
	slices.Sort(r.keys)
	lock.With(&ic.mu, func() { ic.round = r })
	return raw
}

// claim is the key of the round's request that asks method with params
// (nil for roots/list), the first not claimed yet (else the first of the
// method: every request of the round gets a key, so a gateway gathering
// the round never waits for one that cannot come), and a function to call
// when the engine is done with it; the zero InputKey when the call is in
// no round or none is left.
func (ic *inputCall) claim(method mcp.MCPMethod, params any) (InputKey, func()) {
	if ic == nil {
		return InputKey{}, func() {}
	}
	want, _ := json.Marshal(params)
	var in InputKey
	var settled chan string
	lock.With(&ic.mu, func() {
		r := ic.round
		if r == nil {
			return
		}
		k, ok := r.free(method, func(q mcp.InputRequest) bool { return sameParams(q, want) })
		if !ok { // mcp-go passed the parameters on changed: any of the method
			k, ok = r.free(method, func(mcp.InputRequest) bool { return true })
		}
		if ok {
			r.claimed[k] = true
			in, settled = InputKey{Key: k, Keys: r.keys, Settled: r.settled}, r.settled
		}
	})
	if settled == nil {
		return InputKey{}, func() {}
	}
	return in, func() { settled <- in.Key }
}

// holdRound takes the place of the call's current round for one of its
// requests: the first to come takes it with admit, the last to finish
// gives it back. A round too large for mcpdeck is refused whole.
func (ic *inputCall) holdRound(admit func() (func(), error)) (func(), error) {
	var r *inputRound
	lock.With(&ic.mu, func() { r = ic.round })
	if r == nil {
		return admit()
	}
	if r.tooLarge != nil {
		return nil, r.tooLarge
	}
	var err error
	lock.With(&r.mu, func() {
		if r.holders == 0 {
			if r.release, err = admit(); err != nil {
				return
			}
		}
		r.holders++
	})
	if err != nil {
		return nil, err
	}
	return func() {
		lock.With(&r.mu, func() {
			if r.holders--; r.holders == 0 {
				r.release()
				r.release = nil
			}
		})
	}, nil
}

// free is the first key of the round not claimed yet whose request asks
// method and is one match wants.
func (r *inputRound) free(method mcp.MCPMethod, match func(mcp.InputRequest) bool) (string, bool) {
	for _, k := range r.keys {
		if q := r.reqs[k]; !r.claimed[k] && q.Method == method && match(q) {
			return k, true
		}
	}
	return "", false
}

// sameParams says whether q's parameters encode as want.
func sameParams(q mcp.InputRequest, want []byte) bool {
	var p any
	switch q.Method {
	case mcp.MethodElicitationCreate:
		p = q.Elicitation
	case mcp.MethodSamplingCreateMessage:
		p = q.Sampling
	case mcp.MethodListRoots:
		return true
	default:
		return false
	}
	got, _ := json.Marshal(p)
	return bytes.Equal(got, want)
}

// callMethod is the method of a call's what ("tools/call NAME").
func callMethod(what string) string {
	m, _, _ := strings.Cut(what, " ")
	return m
}
