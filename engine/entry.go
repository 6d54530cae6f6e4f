package engine

import (
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

const closeTimeout = time.Second

func defaultRand() float64 { return rand.Float64() }

// entry is the engine's private record of one server, guarded by
// Engine.mu: its definition, its lifecycle (st, which only
// lifecycle.Step changes) and one field group per part, which only that
// part's code writes. What a snapshot shows of it is assembled from them in
// one place (snapshot, publish.go).
type entry struct {
	srv      model.Server
	st       lifecycle.State
	def      shownDefinition // the definition as snapshots show it (config)
	blockers []model.Reason  // blockers(srv): PATH lookups, so found outside e.mu (Reload, Reconnect)
	// mask is the server's one Masker (model.Server.Secrets): error text,
	// stderr, log messages, instructions and traffic pass it.
	mask *textsafe.Masker
	// policy is the managed policy now in force for srv. The programs a
	// live connection runs (its headersHelper) read it without e.mu, so a
	// reload that changed only the policy reaches them at once.
	policy atomic.Pointer[model.Policy]

	conn   connState   // runner: the attempt, connection, retry, sign-in
	lists  listState   // lists
	calls  callState   // calls
	logs   logState    // logs and traffic
	asks   askState    // sampling and elicitation
	watch  watchState  // subscriptions
	health healthState // health
	pins   pinState    // pins
	memory memoryState // memory
}

// forget drops everything learned from a connection so that a reconnect
// never shows stale lists.
func (en *entry) forget() {
	en.lists.forget()
	en.conn.forget()
	en.calls.forget()
	en.pins.forget()
}
