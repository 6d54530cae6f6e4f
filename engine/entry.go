package engine

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

const closeTimeout = time.Second

func defaultRand() float64 { return rand.Float64() }

// entry is the engine's private record of one server. Guarded by Engine.mu.
// Its lifecycle (state, reason, counters, error, generation) is st, which
// only step changes; the rest is what the runner holds for it.
type entry struct {
	srv model.Server
	s   ServerSnapshot // what the next snapshot shows
	st  serverState

	cancel   context.CancelFunc // ends the current attempt or connection
	conn     session
	timer    *time.Timer             // scheduled retry
	schemas  map[string]*inputSchema // compiled input schemas by tool name
	blockers []model.Reason          // blockers(srv): PATH lookups, so found outside e.mu (Reload, Reconnect)
	logBuf   []LogEntry              // log messages not yet in a snapshot (logs.go)
	inFlight int                     // requests under way: the health check waits while any are (health.go)
	logTimer *time.Timer             // the pending flush of logBuf
	// traffic is the server's recent JSON-RPC frames (traffic.go), kept
	// across reconnects; trafficTimer the pending copy into the snapshot.
	traffic      trafficRing
	trafficTimer *time.Timer
	// mask is the server's one Masker (model.Server.Secrets): error text,
	// stderr, log messages, instructions and traffic pass it.
	mask       *textsafe.Masker
	refetching [numLists]bool // a list refetch is running
	dirty      [numLists]bool // list_changed arrived during the refetch
	// watched are the resources the person watches (subscriptions.go), by
	// URI: kept across reconnects, renewed on each new connection.
	watched map[string]*watchState
	// logLevel is the level the person chose for the server's log messages
	// (logs.go), "" until they choose one.
	logLevel string
	// toolsAuthErr is the authorization refusal (401/403) of the last tools
	// list, nil when it was given: a call then reports it, not "no such tool".
	toolsAuthErr error
	// asking counts the server's requests waiting for an answer (at most
	// MaxPendingAsks, asklimit.go); lastDecline is when one was last
	// declined, askTimer the pending publish of a burst's counts.
	asking      int
	lastDecline time.Time
	askTimer    *time.Timer
	// policy is the managed policy now in force for srv. The programs a
	// live connection runs (its headersHelper) read it without e.mu, so a
	// reload that changed only the policy reaches them at once.
	policy atomic.Pointer[model.Policy]
}

// stopRetry stops the retry timer.
func (en *entry) stopRetry() {
	if en.timer != nil {
		en.timer.Stop()
		en.timer = nil
	}
}

// dropCaches forgets everything learned from a connection so that a
// reconnect never shows stale lists.
func (en *entry) dropCaches() {
	en.s.Tools, en.s.Resources, en.s.Templates, en.s.Prompts, en.s.Skills = nil, nil, nil, nil, nil
	en.s.Instructions, en.s.ServerInfo, en.s.ProtocolVersion = "", Implementation{}, ""
	en.s.Subscriptions = false
	en.schemas = nil
}
