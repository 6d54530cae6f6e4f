package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/mcpdeck/mcpdeck/engine/inputround"
	"github.com/mcpdeck/mcpdeck/model"
)

// neverAnswers is the person away from the TUI: every request it is given
// waits until the server or mcpdeck gives up. It counts those waiting per
// server and reports, on over, the first time more than MaxPendingAsks of
// one server wait at once.
type neverAnswers struct {
	mu      sync.Mutex
	waiting map[string]int
	peak    map[string]int
	over    chan string
}

func newNeverAnswers() *neverAnswers {
	return &neverAnswers{waiting: map[string]int{}, peak: map[string]int{}, over: make(chan string, 1)}
}

func (n *neverAnswers) wait(ctx context.Context, server string) error {
	n.mu.Lock()
	n.waiting[server]++
	if w := n.waiting[server]; w > n.peak[server] {
		n.peak[server] = w
		if w > MaxPendingAsks {
			select {
			case n.over <- fmt.Sprintf("%d requests of %s wait at once", w, server):
			default:
			}
		}
	}
	n.mu.Unlock()
	<-ctx.Done()
	n.mu.Lock()
	n.waiting[server]--
	n.mu.Unlock()
	return ctx.Err()
}

func (n *neverAnswers) elicit(ctx context.Context, r ElicitRequest) (ElicitResponse, error) {
	return ElicitResponse{}, n.wait(ctx, r.Server)
}

func (n *neverAnswers) sample(ctx context.Context, r SampleRequest) (SampleResponse, error) {
	return SampleResponse{}, n.wait(ctx, r.Server)
}

func (n *neverAnswers) peakOf(server string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.peak[server]
}

// TestFloodOfRequestsIsBounded: two servers send requests at once to a
// person who never answers: ten thousand elicitations, two thousand
// sampling requests. Of each, MaxPendingAsks wait and every other one is
// declined at once with JSON-RPC error -32000 saying why (the fault server
// tallies what reached it); the snapshot records one burst per server,
// counted whole, and the sampling history none of the declined; the
// goroutines stay a few hundred, not tens of thousands, and none is left
// once the engine closes.
func TestFloodOfRequestsIsBounded(t *testing.T) {
	bin := needFaultServer(t)
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) }) // registered first: runs after the engine closed
	before := runtime.NumGoroutine()
	person := newNeverAnswers()
	sent := map[string]int{"eflood": 10000, "sflood": 2000}
	e := realEngine(t, map[string]any{
		"eflood": map[string]any{"command": bin, "args": []string{"-elicit-flood", fmt.Sprint(sent["eflood"])}},
		"sflood": map[string]any{"command": bin, "args": []string{"-sample-flood", fmt.Sprint(sent["sflood"])}},
	}, nil, func(o *Options) { o.Elicit, o.Sample = person.elicit, person.sample })
	if err := e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"eflood", "sflood"} {
		declined := sent[name] - MaxPendingAsks
		await(t, e, name, "connected", inState(model.StateConnected))
		tally := floodTally(t, e, person, name, declined)
		want := fmt.Sprintf(`{"answered":%d,"errors":{"-32000 mcpdeck: too many pending requests from this server (limit %d); declined":%d},"results":0}`,
			declined, MaxPendingAsks, declined)
		if tally != want {
			t.Errorf("%s: the server got %s, want %s", name, tally, want)
		}
		if p := person.peakOf(name); p != MaxPendingAsks {
			t.Errorf("%s: at most %d requests waited for the person, want %d", name, p, MaxPendingAsks)
		}
		s := await(t, e, name, "the whole burst counted", func(s ServerSnapshot) bool { return s.Flood.Declined == declined })
		if want := (AskFlood{Seq: 1, At: s.Flood.At, Sent: sent[name], Declined: declined, Limit: MaxPendingAsks}); s.Flood != want || s.Flood.At.IsZero() {
			t.Errorf("%s: burst %+v, want %+v", name, s.Flood, want)
		}
		if len(s.Sampling) > 0 {
			t.Errorf("%s: %d declined requests in the sampling history, want none (the burst says it)", name, len(s.Sampling))
		}
	}
	if n := runtime.NumGoroutine() - before; n > 400 {
		t.Errorf("%d goroutines more than before the flood, want a few hundred at most", n)
	}
}

// floodTally asks the fault server how its flood was answered once want
// answers reached it, failing at once if more than MaxPendingAsks requests
// waited for the person.
func floodTally(t *testing.T, e *Engine, person *neverAnswers, server string, want int) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	type answer struct {
		text string
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := e.CallTool(ctx, server, "flood_answers", map[string]any{"want": want}, nil)
		done <- answer{text(res), err}
	}()
	select {
	case a := <-done:
		if a.err != nil {
			t.Fatalf("%s: flood_answers: %v", server, a.err)
		}
		var v any // the tally in a canonical form: keys sorted
		if err := json.Unmarshal([]byte(a.text), &v); err != nil {
			t.Fatalf("%s: flood_answers = %q: %v", server, a.text, err)
		}
		b, _ := json.Marshal(v)
		return string(b)
	case msg := <-person.over:
		cancel()
		<-done
		t.Fatalf("the limit does not hold: %s", msg)
	}
	return ""
}

// TestInputRoundIsOneQuestion: a 2026-07-28 tool that asks five, fifty,
// then inputround.MaxInputs questions in one input-required round gets them all
// before the person at once, and its answer: the round holds one of the
// server's MaxPendingAsks places, not one per input. The person answers
// only once every question of the round is on screen.
func TestInputRoundIsOneQuestion(t *testing.T) {
	bin := needFaultServer(t)
	var mu sync.Mutex
	waiting, want := 0, 0
	all := make(chan struct{})
	e := realEngine(t, map[string]any{"ask": map[string]any{"command": bin, "args": []string{"-modern", "-ask"}}}, nil,
		func(o *Options) {
			o.Elicit = func(ctx context.Context, _ ElicitRequest) (ElicitResponse, error) {
				mu.Lock()
				if waiting++; waiting == want {
					close(all)
				}
				ch := all
				mu.Unlock()
				select {
				case <-ch:
					return ElicitResponse{Action: ElicitAccept, Content: map[string]any{"answer": "yes"}}, nil
				case <-ctx.Done():
					return ElicitResponse{}, ctx.Err()
				}
			}
		})
	if err := e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "ask", "connected", inState(model.StateConnected))
	for _, n := range []int{MaxPendingAsks + 1, 50, inputround.MaxInputs} {
		mu.Lock()
		waiting, want, all = 0, n, make(chan struct{})
		mu.Unlock()
		res, err := e.CallTool(t.Context(), "ask", "ask_many", map[string]any{"count": n}, nil)
		if err != nil {
			t.Fatalf("a round of %d inputs: %v", n, err)
		}
		if got, want := text(res), fmt.Sprintf("%d answers", n); got != want {
			t.Errorf("a round of %d inputs: %q, want %q", n, got, want)
		}
	}
}

// TestInputFloodEndsTheCall: a 2026-07-28 tool that asks more than
// inputround.MaxInputs questions in one round has its call ended before the
// person sees any, with a sentence saying why.
func TestInputFloodEndsTheCall(t *testing.T) {
	bin := needFaultServer(t)
	person := newNeverAnswers()
	e := realEngine(t, map[string]any{"ask": map[string]any{"command": bin, "args": []string{"-modern", "-ask"}}}, nil,
		func(o *Options) { o.Elicit = person.elicit })
	if err := e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "ask", "connected", inState(model.StateConnected))
	_, err := e.CallTool(t.Context(), "ask", "ask_many", map[string]any{"count": inputround.MaxInputs + 1}, nil)
	if !errors.Is(err, inputround.ErrTooLarge) {
		t.Fatalf("error %v, want inputround.ErrTooLarge", err)
	}
	if want := fmt.Sprintf("calling ask_many on ask: the server asked for %d inputs", inputround.MaxInputs+1); !strings.Contains(err.Error(), want) {
		t.Errorf("error %q lacks %q", err, want)
	}
	if p := person.peakOf("ask"); p != 0 {
		t.Errorf("%d questions of the refused round reached the person", p)
	}
}
