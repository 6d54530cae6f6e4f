// Package serve is `mcpdeck serve`: every server mcpdeck manages, offered to
// an agent as one MCP server (over stdio or streamable HTTP).
//
// A Gateway owns an engine and follows its snapshots: the servers that may
// run (approved, enabled, allowed by policy) and that --servers keeps are
// offered, their tools and prompts as SERVER__NAME (model.ServeName) or
// under their own names as --prefix says (naming.go), resources under
// their own URIs; a tool a permission rule denies, or that
// --tools leaves out, is not offered. When what is offered changes (a server
// connects, is disabled, changes its lists) the agent is sent
// notifications/…/list_changed. A server that drops keeps its last lists
// offered while the engine reconnects it. Calls (and completions) go
// through the engine, so approvals, policy, permissions, sign-in and
// reconnects all hold; a server that is not connected answers at once with
// a sentence naming it and its state.
//
// Going up: progress of a call reaches the agent under its progress token,
// the agent's cancellation cancels the engine's call, servers' log messages
// become the agent's notifications/message, and a server's elicitation or
// sampling request is put to the agent when it declared it can answer,
// otherwise to the headless answers the engine was given. An agent on
// protocol 2026-07-28 is asked by an input-required answer to its request,
// whose retry carries the answer back to the waiting call (relay.go).
package serve

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// Options say what a Gateway offers.
type Options struct {
	Servers []string // --servers: only these servers (none: every one)
	Tools   []string // --tools: globs on exposed tool names (none: every tool)
	// IDETools (--ide-tools) are editors' tools to offer beside
	// getDiagnostics and executeCode (model.Editor.ForAgents).
	IDETools []string
	Prefix   Prefix // --prefix: how tools and prompts are named ("": auto)
	Version  string // mcpdeck's version, given to agents as serverInfo
	// AnswersElicitation says that the engine options' Elicit answers an
	// elicitation the agent cannot (the --elicit policy), so a server on
	// 2026-07-28 may ask for one (agentcaps.go).
	AnswersElicitation bool
	// Log receives notes for the person, one line each (a server's state,
	// a name left out); nil discards them.
	Log io.Writer
	// StartupWait caps how long serve waits for a server (--wait): the
	// first answer for one it knows no lists of, a call for one still
	// connecting. 0 waits up to the engine's connect timeout
	// (MCP_TIMEOUT); a negative wait is none.
	StartupWait time.Duration
}

// Gateway is one engine offered as one MCP server. It is a thin front
// over parts that own their fields, each its own lock or none
// (parts_test.go holds who owns what): lists (what is offered), sessions
// (the agents and their subscriptions), routes (requests in flight and
// where a name leads), asks (servers' questions put to agents), syncer
// (following the engine's snapshots) and start (first answers held).
// What the Gateway keeps itself is set in New and never changes.
type Gateway struct {
	eng *engine.Engine
	srv *server.MCPServer
	f   filter
	log io.Writer

	// base is the context of relayed calls (relay.go), cancelled by Close.
	base context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup

	lists    *lists     // the snapshot as offered, its exposure, the list cache and fronts (lists.go)
	sessions *sessions  // the agents' sessions and resource subscriptions (sessions.go)
	routes   *routes    // agent requests in flight and where they go (routes.go)
	asks     *questions // servers' questions put to agents, calls waiting for answers (askagent.go)
	syncer   *syncer    // applies the engine's snapshots (sync.go)
	start    *startup   // holds first answers for servers serve knows nothing of (startup.go)
	// changed rings whenever lists or routes change (a snapshot applied,
	// a call begun or ended): it wakes waiters.
	changed *bell
}

// ErrUnknownServer is returned for a --servers name nothing configures
// (the engine's, so every command words it alike).
var ErrUnknownServer = engine.ErrUnknownServer

// newGateway is a Gateway's state before anything runs: its parts, made
// in one place so that no constructor (the tests' offline ones included)
// leaves one nil.
func newGateway(f filter, log io.Writer, fb fallbacks) *Gateway {
	g := &Gateway{f: f, log: log, start: newStartup(), changed: newBell()}
	g.lists = &lists{g: g, known: newKnown()}
	g.sessions = &sessions{g: g, byID: map[string]server.ClientSession{}, logFallback: fb.onLog}
	g.routes = &routes{g: g}
	g.asks = &questions{g: g, fallback: fb, pending: newPending(pendingTTL, maxPending)}
	g.syncer = &syncer{g: g, told: map[string]bool{}, floods: map[string]int{}, lastKinds: map[string]status.Kind{}, judging: f.prefix == PrefixNever}
	return g
}

// New starts an engine with eo and offers its servers. eo's Elicit, Sample
// and OnLog stay the answers for what the agent cannot take.
func New(ctx context.Context, eo engine.Options, o Options) (*Gateway, error) {
	f, err := newFilter(o.Servers, o.Tools, o.IDETools)
	if err != nil {
		return nil, err
	}
	if f.prefix, err = ParsePrefix(string(o.Prefix)); err != nil {
		return nil, err
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	g := newGateway(f, o.Log, fallbacks{elicit: eo.Elicit, sample: eo.Sample, onLog: eo.OnLog, answersElicit: o.AnswersElicitation})
	g.base, g.stop = context.WithCancel(context.Background())
	eo.Elicit, eo.Sample, eo.OnLog, eo.Roots = g.asks.elicit, g.asks.sample, g.sessions.onLog, g.asks.roots
	// Each server's last lists answer the next start's first list (known.go).
	eo.RememberLists = true
	g.srv = g.newMCPServer(o.Version)
	eng, err := engine.New(eo)
	if err != nil {
		g.stop()
		return nil, err
	}
	if err := eng.Start(ctx); err != nil {
		g.stop()
		_ = eng.Close()
		return nil, err
	}
	g.eng = eng
	snap := eng.Snapshot()
	if err := checkServers(snap, o.Servers); err != nil {
		g.stop()
		_ = eng.Close()
		return nil, err
	}
	g.note(f.prefix.describe(snap, f))
	g.start.begin(serverWait(o.StartupWait, eng.ConnectTimeout()))
	g.syncer.apply(snap)
	g.wg.Go(g.syncer.follow)
	if f.prefix == PrefixNever {
		if err := g.refuseClashes(ctx); err != nil {
			_ = g.Close()
			return nil, err
		}
	}
	return g, nil
}

// checkServers names the configured servers when --servers names another.
func checkServers(snap engine.Snapshot, want []string) error {
	have := map[string]bool{}
	var names []string
	for _, s := range snap.Servers {
		have[s.Name] = true
		names = append(names, s.Name)
	}
	sort.Strings(names)
	for _, w := range want {
		if !have[w] {
			return &UnknownServerError{Name: w, Configured: names}
		}
	}
	return nil
}

// UnknownServerError is a --servers name nothing configures, with the
// names that are (the CLI words it, with the one a typo meant).
type UnknownServerError struct {
	Name       string
	Configured []string
}

func (e *UnknownServerError) Error() string {
	if len(e.Configured) == 0 {
		return fmt.Sprintf("%v %q: no MCP servers are configured", ErrUnknownServer, e.Name)
	}
	return fmt.Sprintf("%v %q (configured: %s)", ErrUnknownServer, e.Name, strings.Join(e.Configured, ", "))
}

func (e *UnknownServerError) Unwrap() error { return ErrUnknownServer }

// Close cancels the calls waiting for an agent's answers, stops the engine
// (every server) and the gateway's goroutines.
func (g *Gateway) Close() error {
	g.start.end()
	g.asks.close()
	g.stop()
	err := g.eng.Close()
	g.wg.Wait()
	return err
}

// note writes one line for the person, sanitized (it carries server text).
func (g *Gateway) note(s string) {
	fmt.Fprintln(g.log, textsafe.SanitizeLine("mcpdeck serve: "+s))
}
