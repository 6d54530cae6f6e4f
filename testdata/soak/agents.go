package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// agent is one MCP client of serve, over streamable HTTP with the token.
type agent struct {
	id     int
	modern bool // protocol 2026-07-28 (else 2025-11-25)
	c      *client.Client
	rnd    *rand.Rand
}

// dial connects an agent to serve and initializes its session.
func dial(ctx context.Context, w *world, id int, modern bool) (*agent, error) {
	tr, err := transport.NewStreamableHTTP(w.base()+"/mcp",
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + w.token}))
	if err != nil {
		return nil, err
	}
	var opts []client.ClientOption
	if !modern {
		opts = append(opts, client.WithProtocolVersion(mcp.ProtocolVersion20251125))
	}
	c := client.NewClient(tr, opts...)
	if err := c.Start(ctx); err != nil {
		return nil, err
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.ProtocolVersion20251125
	if modern {
		init.Params.ProtocolVersion = mcp.ProtocolVersion20260728
	}
	init.Params.ClientInfo = mcp.Implementation{Name: fmt.Sprintf("soak-agent-%d", id), Version: "1"}
	// mcp-go keeps Initialize's context for the session's later requests:
	// it must live as long as the agent.
	if _, err := c.Initialize(ctx, init); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("agent %d: initialize: %w", id, err)
	}
	return &agent{id: id, modern: modern, c: c}, nil
}

// call is one tool call an agent makes and what it expects back.
type call struct {
	server, tool string
	args         map[string]any
	want         string // the whole text of a correct result; "" when any result is right
	fault        bool   // the call itself is a fault (crash, hang, flood, drop)
	progress     bool
}

// outcome is what became of a call.
type outcome struct {
	call
	result, err string // the result's text, or the error's
	isErr       bool
	lost        bool
	took        time.Duration
}

// do makes one call, waiting at most callTimeout for an answer.
func (a *agent) do(ctx context.Context, c call) outcome {
	req := mcp.CallToolRequest{}
	req.Params.Name = c.server + "__" + c.tool
	req.Params.Arguments = c.args
	if c.progress {
		req.Params.Meta = &mcp.Meta{ProgressToken: fmt.Sprintf("a%d-%d", a.id, a.rnd.Int64())}
	}
	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	start := time.Now()
	res, err := a.c.CallTool(cctx, req)
	o := outcome{call: c, took: time.Since(start)}
	switch {
	case err != nil && ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded):
		o.lost = true
		o.err = err.Error()
	case err != nil:
		o.isErr, o.err = true, err.Error()
	case res.IsError:
		o.isErr, o.err = true, resultText(res)
	default:
		o.result = resultText(res)
	}
	return o
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// probe is the call that shows a server answers: a fault server's echo,
// the reference server's simple text, the demo servers' tools.
func probe(s *server, rnd *rand.Rand) call {
	switch s.kind {
	case "conf":
		return call{server: s.name, tool: "test_simple_text", want: "This is a simple text response for testing."}
	case "calculator":
		a, b := rnd.IntN(1000), rnd.IntN(1000)
		return call{server: s.name, tool: "calculate", args: map[string]any{"op": "add", "a": a, "b": b}, want: fmt.Sprint(a + b)}
	case "weather":
		return call{server: s.name, tool: "forecast", args: map[string]any{"city": "Oslo", "days": 1}}
	case "ide":
		return call{server: s.name, tool: "getDiagnostics"}
	}
	text := fmt.Sprintf("soak %d", rnd.Int64())
	return call{server: s.name, tool: "echo", args: map[string]any{"text": text}, want: text}
}

// choose is an agent's next call: mostly probes of any server, some
// arithmetic, progress, slow answers and log notifications on fault
// servers; while faults run, also the calls that are faults themselves
// (crashes, hangs, floods, drops) on the servers whose role they fit.
func choose(rnd *rand.Rand, servers []*server, faults bool) call {
	pick := func(ok func(*server) bool) *server {
		var c []*server
		for _, s := range servers {
			if ok(s) {
				c = append(c, s)
			}
		}
		return c[rnd.IntN(len(c))]
	}
	anyServer := func(*server) bool { return true }
	faultServer := func(s *server) bool { return s.kind == "fault" }
	n := rnd.IntN(1000)
	if faults {
		switch {
		case n < 30:
			s := pick(func(s *server) bool { return s.role == roleCrashy || s.role == roleGrandchild || s.role == roleDaemon })
			return call{server: s.name, tool: "crash", fault: true}
		case n < 37:
			s := pick(func(s *server) bool { return s.kind == "fault" && !s.remote() })
			return call{server: s.name, tool: "hang", fault: true}
		case n < 57:
			s := pick(func(s *server) bool { return s.role == roleFlood })
			return call{server: s.name, tool: "stderr", args: map[string]any{"mb": 2}, fault: true}
		case n < 77:
			s := pick(func(s *server) bool { return s.role == roleFlood })
			return call{server: s.name, tool: "flood", args: map[string]any{"count": 300}, want: "sent 300 notifications", fault: true}
		case n < 92:
			s := pick(func(s *server) bool { return s.kind == "fault" && s.remote() })
			return call{server: s.name, tool: "drop", fault: true}
		}
	}
	switch {
	case n < 700:
		return probe(pick(anyServer), rnd)
	case n < 800:
		s := pick(faultServer)
		a, b := rnd.IntN(1000), rnd.IntN(1000)
		return call{server: s.name, tool: "add", args: map[string]any{"a": a, "b": b}, want: fmt.Sprint(a + b)}
	case n < 870:
		s := pick(faultServer)
		return call{server: s.name, tool: "progress", args: map[string]any{"steps": 3}, want: "did 3 steps", progress: true}
	case n < 940:
		s := pick(faultServer)
		return call{server: s.name, tool: "slow", args: map[string]any{"ms": 100 + rnd.IntN(1400)}, want: "slow done"}
	}
	s := pick(faultServer)
	return call{server: s.name, tool: "log", args: map[string]any{"text": "soak log line"}, want: "logged"}
}

// gate lets the sampler pause the agents: each call holds it shared, a
// sample holds it alone (so it waits for the calls in flight to end, at
// most callTimeout, and no call starts meanwhile).
type gate struct{ sync.RWMutex }

// The phases of a run, in order.
const (
	phaseWarm int32 = iota
	phaseFaults
	phaseRecovery
	phaseSteady
)

var phaseNames = [...]string{"warm", "faults", "recovery", "steady"}

// fleetRun is what the agents share: the servers, the phase, the gate,
// and the tally.
type fleetRun struct {
	servers []*server
	phase   atomic.Int32
	gate    gate
	tally   *tally
	verbose bool
}

// loop calls until ctx ends.
func (a *agent) loop(ctx context.Context, f *fleetRun) {
	for ctx.Err() == nil {
		f.gate.RLock()
		phase := f.phase.Load()
		c := choose(a.rnd, f.servers, phase == phaseFaults)
		o := a.do(ctx, c)
		f.gate.RUnlock()
		if ctx.Err() != nil {
			return // the run ended under the call: not the product's answer
		}
		f.tally.add(o, phaseNames[phase], f.verbose)
		if o.isErr || o.lost {
			// An agent's model reads the error before its next call.
			select {
			case <-ctx.Done():
			case <-time.After(afterError):
			}
		}
	}
}

// afterError is how long an agent pauses after an error, as a model
// reading it would, rather than calling again at once.
const afterError = 200 * time.Millisecond

// reached says whether a fault call reached its server: it was answered
// with a result, or with an error about the call itself ("calling crash
// on S: …"), not refused before it by serve (the server not offered or
// not connected).
func (o outcome) reached() bool {
	return !o.lost && (!o.isErr || strings.Contains(o.err, "calling "+o.tool+" on "+o.server+":"))
}
