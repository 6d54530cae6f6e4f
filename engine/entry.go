package engine

import (
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
	"github.com/mcpdeck/mcpdeck/engine/lock"
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

// locked runs f holding the engine's mutex, which guards the engine's
// fields, every entry and the parts' fields.
func (e *Engine) locked(f func()) { lock.With(&e.mu, f) }

// withEntry runs f on the entry of server, holding the engine's mutex, and
// returns its error; ErrClosed after Close, ErrUnknownServer for a name
// that is not configured.
func (e *Engine) withEntry(server string, f func(en *entry) error) (err error) {
	e.locked(func() {
		switch en := e.byName[server]; {
		case e.closed:
			err = ErrClosed
		case en == nil:
			err = unknownServer(server)
		default:
			err = f(en)
		}
	})
	return err
}

// ifEntry runs f on the entry of server, holding the engine's mutex, unless
// the engine is closed or the server gone: for what arrives late (a timer,
// a notification, a goroutine's result), which then has nothing to do.
func (e *Engine) ifEntry(server string, f func(en *entry)) {
	e.locked(func() {
		if en := e.byName[server]; en != nil && !e.closed {
			f(en)
		}
	})
}

// redact masks what a text about en's server may reveal of its secrets,
// with the server's one Masker (its secret set, model.Server.Secrets).
// Every error sentence and detail the engine publishes or returns about a
// server passes through it, so the TUI, mcp list (--json too), mcp get,
// call and serve all show the same masked text. Callers hold e.mu.
func (en *entry) redact(s string) string {
	return en.mask.Mask(s)
}

// maskErr is err with its sentence masked (redact); errors.Is and
// errors.As still reach err. Callers hold e.mu.
func (en *entry) maskErr(err error) error {
	return &maskedError{msg: en.redact(err.Error()), err: err}
}

// maskedError is an error whose sentence was masked.
type maskedError struct {
	msg string
	err error
}

func (m *maskedError) Error() string { return m.msg }

// Unwrap returns the error as it was.
func (m *maskedError) Unwrap() error { return m.err }

// text is err as a sentence a person reads about en's server, with its
// secrets masked. Callers hold e.mu.
func (o errorOps) text(en *entry, err error) string {
	return en.redact(o.humanize(err))
}
