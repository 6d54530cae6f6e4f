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
	"errors"
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

// Gateway is one engine offered as one MCP server.
type Gateway struct {
	eng *engine.Engine
	srv *server.MCPServer
	f   filter
	log io.Writer

	// fallback answers what the agent cannot: the engine options' own
	// callbacks (the CLI's headless policy).
	fallback struct {
		elicit engine.ElicitFunc
		sample engine.SampleFunc
		onLog  func(string, engine.LogEntry)
	}
	answersElicit bool // Options.AnswersElicitation

	// setting is held while a snapshot is applied, from the exposure
	// built to mcp-go's lists set (sync.go); setSeq, guarded by it, is the
	// last snapshot whose lists are set.
	setting sync.Mutex
	setSeq  uint64

	mu       sync.Mutex
	snap     engine.Snapshot
	view     engine.Snapshot // snap with the lists offered of servers not connected (viewLocked), as x was built from
	x        exposure
	known    known                  // what is offered of servers not connected (known.go)
	told     map[string]bool        // notes already written
	floods   map[string]int         // each server's burst of declined requests last noted (AskFlood.Seq)
	kinds    map[string]status.Kind // each offered server's last kind, for notes
	calls    []*call                // agent requests in flight, oldest first
	sessions map[string]server.ClientSession
	subs     subscriptions // the agents' resource subscriptions (subscribe.go)
	gone     goneServers   // servers that left the configuration (notoffered.go)
	// changed is closed and replaced whenever the above changes (a
	// snapshot applied, a call begun or ended): it wakes waiters.
	changed chan struct{}

	// base is the context of relayed calls (relay.go), cancelled by Close;
	// pending holds those waiting for their agent's answers.
	base    context.Context
	stop    context.CancelFunc
	pending *pending

	lists listCache // encoded list results until what is offered changes (listcache.go)
	start startup   // holds first answers for servers serve knows nothing of (startup.go)
	wg    sync.WaitGroup
}

// ErrUnknownServer is returned for a --servers name nothing configures.
var ErrUnknownServer = errors.New("no such server")

// newGateway is a Gateway's state before anything runs: its maps and
// channels, made in one place so that no constructor (the tests' offline
// ones included) leaves one nil.
func newGateway(f filter, log io.Writer) *Gateway {
	return &Gateway{
		f: f, log: log, told: map[string]bool{}, floods: map[string]int{}, known: newKnown(), kinds: map[string]status.Kind{},
		sessions: map[string]server.ClientSession{}, start: newStartup(), changed: make(chan struct{}),
		pending: newPending(pendingTTL, maxPending),
	}
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
	g := newGateway(f, o.Log)
	g.base, g.stop = context.WithCancel(context.Background())
	if g.log == nil {
		g.log = io.Discard
	}
	g.fallback.elicit, g.fallback.sample, g.fallback.onLog = eo.Elicit, eo.Sample, eo.OnLog
	g.answersElicit = o.AnswersElicitation
	eo.Elicit, eo.Sample, eo.OnLog, eo.Roots = g.elicit, g.sample, g.onLog, g.roots
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
	g.apply(snap)
	g.wg.Go(g.follow)
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
			if len(names) == 0 {
				return fmt.Errorf("%w %q: no MCP servers are configured", ErrUnknownServer, w)
			}
			return fmt.Errorf("%w %q (configured: %s)", ErrUnknownServer, w, strings.Join(names, ", "))
		}
	}
	return nil
}

// Close cancels the calls waiting for an agent's answers, stops the engine
// (every server) and the gateway's goroutines.
func (g *Gateway) Close() error {
	g.start.end()
	g.pending.close()
	g.stop()
	err := g.eng.Close()
	g.wg.Wait()
	return err
}

// follow applies every snapshot the engine publishes, until it closes.
func (g *Gateway) follow() {
	for snap := range g.eng.Updates() {
		g.apply(snap)
	}
}

// note writes one line for the person, sanitized (it carries server text).
func (g *Gateway) note(s string) {
	fmt.Fprintln(g.log, textsafe.SanitizeLine("mcpdeck serve: "+s))
}

// bumpLocked wakes whoever waits on changed. Callers hold g.mu.
func (g *Gateway) bumpLocked() {
	close(g.changed)
	g.changed = make(chan struct{})
}
