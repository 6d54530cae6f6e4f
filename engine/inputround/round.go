// Package inputround keeps the input-required round a call is in, so
// each of the round's requests for input gets its server's key back.
// mcp-go answers a server's round by calling the handler of each request
// concurrently, without the key the server gave it; the engine reads the
// round as it arrives (transports.TakeResult hands it to Note) and gives
// each request its key back, by its method and parameters (Claim), so a
// gateway can put the round to its agent as the server asked it. A round
// is one question with several fields, so its requests share one place
// among those its server may hold waiting (Hold).
package inputround

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine/lock"
	"github.com/mcpdeck/mcpdeck/transports"
)

// Key places a server's request for input in its call's round; the zero
// value is a request the server sent on its own.
type Key struct {
	Key  string   // the server's key for the request
	Keys []string // every key of the round, sorted
	// Settled receives each key of the round whose request the engine
	// finished with (answered, declined, failed): a gateway gathering the
	// round's questions stops waiting for those.
	Settled <-chan string
}

// A round's requests share one place, however many there are; these
// bound what one round may ask instead. A round beyond them ends its call
// (ErrTooLarge), before the person is asked anything.
const (
	MaxInputs = 64
	maxBytes  = 4 << 20 // the result that starts the round, encoded
)

// ErrTooLarge ends a call whose server asked, in one input-required
// round, for more inputs than MaxInputs or more bytes than maxBytes.
var ErrTooLarge = errors.New("the server asked for too much input in one round")

// TooLargeError is ErrTooLarge with what the round held.
type TooLargeError struct{ Inputs, Bytes int }

func (r TooLargeError) Error() string {
	return fmt.Sprintf("the server asked for %d inputs (%s) in one round, more than mcpdeck answers at once (%d inputs, %s), so mcpdeck stopped the request",
		r.Inputs, transports.FormatSize(r.Bytes), MaxInputs, transports.FormatSize(maxBytes))
}

// Is makes errors.Is(err, ErrTooLarge) hold.
func (TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// Current is the input-required round of one call: none until a result
// of the call starts one, then the latest. A nil *Current is a request
// that belongs to no call.
type Current struct {
	mu    sync.Mutex
	round *round
}

// round is one input-required round.
type round struct {
	reqs     mcp.InputRequests
	keys     []string
	claimed  map[string]bool
	settled  chan string // buffered: one send per key
	tooLarge error       // TooLargeError, or nil

	// place is the one ask place the round's requests share: holders
	// count those holding it, release gives it back.
	mu      sync.Mutex
	holders int
	release func()
}

// Note records the round a result of the call starts, when it is an
// input-required one; the result is returned as it came.
func (c *Current) Note(raw json.RawMessage) json.RawMessage {
	var res struct {
		ResultType    string            `json:"resultType"`
		InputRequests mcp.InputRequests `json:"inputRequests"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || res.ResultType != string(mcp.ResultTypeInputRequired) || len(res.InputRequests) == 0 {
		return raw
	}
	r := &round{reqs: res.InputRequests, claimed: map[string]bool{}, settled: make(chan string, len(res.InputRequests))}
	if n := len(res.InputRequests); n > MaxInputs || len(raw) > maxBytes {
		r.tooLarge = TooLargeError{Inputs: n, Bytes: len(raw)}
	}
	for k := range res.InputRequests {
		r.keys = append(r.keys, k)
	}
	slices.Sort(r.keys)
	lock.With(&c.mu, func() { c.round = r })
	return raw
}

// Claim is the key of the round's request that asks method with params
// (nil for roots/list), the first not claimed yet (else the first of the
// method: every request of the round gets a key, so a gateway gathering
// the round never waits for one that cannot come), and a function to call
// when the engine is done with it; the zero Key when the call is in no
// round or none is left.
func (c *Current) Claim(method mcp.MCPMethod, params any) (Key, func()) {
	if c == nil {
		return Key{}, func() {}
	}
	want, _ := json.Marshal(params)
	var in Key
	var settled chan string
	lock.With(&c.mu, func() {
		r := c.round
		if r == nil {
			return
		}
		k, ok := r.free(method, func(q mcp.InputRequest) bool { return sameParams(q, want) })
		if !ok { // mcp-go passed the parameters on changed: any of the method
			k, ok = r.free(method, func(mcp.InputRequest) bool { return true })
		}
		if ok {
			r.claimed[k] = true
			in, settled = Key{Key: k, Keys: r.keys, Settled: r.settled}, r.settled
		}
	})
	if settled == nil {
		return Key{}, func() {}
	}
	return in, func() { settled <- in.Key }
}

// Hold takes the place of the call's current round for one of its
// requests: the first to come takes it with admit, the last to finish
// gives it back. A round too large for mcpdeck is refused whole. Outside
// a round the request takes a place of its own, with admit.
func (c *Current) Hold(admit func() (func(), error)) (func(), error) {
	var r *round
	if c != nil {
		lock.With(&c.mu, func() { r = c.round })
	}
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
func (r *round) free(method mcp.MCPMethod, match func(mcp.InputRequest) bool) (string, bool) {
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
