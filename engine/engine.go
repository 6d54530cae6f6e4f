// Package engine owns the connection lifecycle of every configured MCP
// server: it connects them in batches, watches and reconnects them, keeps
// their tool/resource/prompt lists, runs calls, and publishes immutable
// snapshots of it all for the TUI and the CLI.
//
// One pure function, step (engine/step.go), decides everything that happens
// to a server: given its state and an event (configured, attempt succeeded
// or failed, connection lost, retry due, call failed, the person's actions)
// it returns the next state, with its structured reason, counters and
// error, and the effects to carry out. The rest of the engine runs it: it
// holds the one mutex, the goroutines and timers, feeds events to step,
// performs the effects and publishes each change as a Snapshot on Updates
// (one-slot channel: latest wins, the engine never blocks). Every state
// change goes through the model's allowed-transition table and is recorded
// in the server's history. Each connection attempt carries a generation
// number and results of superseded attempts are dropped.
//
// Environment (read through Options.Load.LookupEnv):
// MCP_SERVER_CONNECTION_BATCH_SIZE (stdio/sdk connects at a time; unset:
// 3, and more while those wait idle, see localgate.go),
// MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE (20), MCP_TIMEOUT (30 000 ms for
// the handshake, and again for listing), MCP_TOOL_TIMEOUT (100 000 000 ms).
//
// A lost connection is retried under Backoff (5 attempts, 1 s doubling to
// 30 s, jitter), shown as pending with attempt n/5 and the next try; a stdio
// server that keeps dying within 10 s of connecting is stopped after 5
// crashes. Call errors follow transports.Classify: transient errors are
// counted (3 in a row reconnect), terminal ones reconnect at once, 401 means
// needs-auth, an expired session is re-initialized and the call retried once.
// A message over Options.MaxMessageSize, or a list whose pages together keep
// more than that, fails the server with no automatic retry: the server would
// send the same again.
package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/transports"
)

// Options configure an Engine. Only Factory is needed in production; every
// other field has a working default.
type Options struct {
	Load     config.LoadOptions
	Rand     func() float64 // jitter source in [0,1); nil = math/rand
	Logger   *slog.Logger   // nil = discard
	Factory  transports.Factory
	Builtins map[string]func() *server.MCPServer
	// Elicit answers servers' elicitation requests (TUI form or CLI
	// policy); nil declines them with a log line.
	Elicit ElicitFunc
	Auth   Authenticator // nil = no OAuth: a 401 means needs-auth
	// CacheDir holds large results, images and stderr logs; "" = defaultCacheDir.
	CacheDir string
	Watch    bool // watch config files and reload on change
	// Extra are servers injected by the program (the demo): dynamic scope,
	// enabled and policy-allowed unless a policy rule is set, hash computed;
	// enabling/disabling them is kept in memory. A configured server of the
	// same name wins.
	Extra []model.Server
	// Backoff overrides the reconnect policy (zero = DefaultBackoff).
	Backoff Backoff
	// MaxMessageSize bounds one message from a server and the total size of
	// each of its lists (0 = transports.MaxMessageSize); a server going over
	// it fails.
	MaxMessageSize int
	// OnLog, when set, receives every log message a server sends
	// (notifications/message) as it arrives, off the engine's lock; the CLI
	// prints them. The TUI reads them from snapshots (ServerSnapshot.Logs).
	OnLog func(server string, entry LogEntry)
	// OnFrame, when set, receives every JSON-RPC frame of every server as
	// it passes (secrets masked), on the transport's goroutine: it must not
	// block. The CLI's --trace writes them; snapshots carry each server's
	// recent frames (ServerSnapshot.Traffic) either way.
	OnFrame func(server string, f Frame)
	// Sample asks about servers' sampling requests (the TUI's prompt, the
	// CLI's policy); nil declines them, and sampling is not declared to
	// servers at all.
	Sample SampleFunc
	// SamplingCommand, when set, writes the reply to every server's
	// sampling requests (--sampling-command), instead of the person or a
	// server's own "sampling" setting.
	SamplingCommand string
}

// ErrClosed is returned by actions after Close.
var ErrClosed = errors.New("engine closed")

// ErrUnknownServer is returned for a name that is not configured.
var ErrUnknownServer = errors.New("no such server")

// ErrNotConnected is returned for calls to a server that is not connected.
var ErrNotConnected = errors.New("server not connected")

// ErrDenied is returned when permission rules forbid a tool.
var ErrDenied = errors.New("tool call denied by permission rules")

// Engine is the connection manager. All methods are safe for concurrent use.
type Engine struct {
	opts        Options
	set         settings
	rnd         func() float64
	log         *slog.Logger
	backoff     Backoff
	open        opener
	errs        errorOps
	findProgram func(model.ServerConfig) error
	load        func(config.LoadOptions) (*config.Resolved, error)
	pub         *publisher

	ctx    context.Context // ends at Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // every goroutine the engine starts
	local  *localGate     // admits stdio and sdk connects (localgate.go)
	remote chan struct{}  // connection batch slots, network

	reloadMu   sync.Mutex // serializes Reload (held before mu)
	mu         sync.Mutex
	closed     bool
	started    bool
	batching   bool     // inside Reload: publish once at the end
	toolsDirty bool     // a tool list changed since the last publish (collisions.go)
	warnings   []string // the engine's own warnings, shown once in snapshots
	seq        uint64
	res        *config.Resolved
	order      []*entry // display order: scope high→low, then name
	byName     map[string]*entry
	last       Snapshot
	changed    chan struct{}             // closed and replaced on every publish
	progress   map[string]func(Progress) // progress token → callback
	tokens     uint64
	watch      *watcher
	overEn     map[string]bool // enable/disable of Extra servers, in memory
	// overSampling is the sampling decision on Extra servers, in memory.
	overSampling map[string]model.SamplingDecision

	protocols protocolMemory // negotiated versions, read once
}

// New builds an engine; Start loads the config and begins connecting.
func New(opts Options) (*Engine, error) {
	if opts.Factory == nil {
		return nil, errors.New("engine: Options.Factory is required")
	}
	if opts.CacheDir == "" {
		dir, err := defaultCacheDir()
		if err != nil {
			return nil, err
		}
		opts.CacheDir = dir
	}
	e := newEngine(opts)
	e.open = factoryOpener(opts.Factory)
	return e, nil
}

// newEngine sets up everything but the opener (tests plug in fakes).
func newEngine(opts Options) *Engine {
	e := &Engine{
		opts:         opts,
		set:          readSettings(opts.Load.LookupEnv),
		rnd:          opts.Rand,
		log:          opts.Logger,
		backoff:      opts.Backoff,
		errs:         transportErrorOps(),
		load:         config.Load,
		pub:          newPublisher(),
		byName:       map[string]*entry{},
		progress:     map[string]func(Progress){},
		overEn:       map[string]bool{},
		overSampling: map[string]model.SamplingDecision{},
		changed:      make(chan struct{}),
	}
	if e.rnd == nil {
		e.rnd = defaultRand
	}
	if e.log == nil {
		e.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if e.opts.MaxMessageSize <= 0 {
		e.opts.MaxMessageSize = transports.MaxMessageSize
	}
	if e.backoff.MaxAttempts == 0 {
		e.backoff = DefaultBackoff()
	}
	e.findProgram = programFinder(e.opts.Load.Cwd, e.opts.Load.LookupEnv)
	e.ctx, e.cancel = context.WithCancel(context.Background())
	e.local = newLocalGate(e.set.localBatch, newCPUMeter())
	e.remote = make(chan struct{}, e.set.remoteBatch)
	return e
}

// Start loads the configuration and begins connecting every runnable
// server. It returns at once; results arrive on Updates.
func (e *Engine) Start(ctx context.Context) error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return ErrClosed
	}
	if e.started {
		e.mu.Unlock()
		return errors.New("engine already started")
	}
	e.started = true
	e.mu.Unlock()
	if err := e.Reload(ctx); err != nil {
		return err
	}
	if e.opts.Watch {
		if err := e.startWatch(); err != nil {
			e.log.Warn("config watching disabled", "err", err)
			e.mu.Lock()
			e.warnings = append(e.warnings, fmt.Sprintf("Config files are not watched (%v): use reload after editing them.", err))
			e.publishLocked()
			e.mu.Unlock()
		}
	}
	return nil
}

// Updates delivers a snapshot after every change. Only the latest unread
// snapshot is kept; the channel closes after Close.
func (e *Engine) Updates() <-chan Snapshot { return e.pub.ch }

// Snapshot returns the current state.
func (e *Engine) Snapshot() Snapshot {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.last
}

// ManagedPolicy is the managed policy of the configuration last loaded,
// which judges mcpdeck's own programs (the browser opener); before the
// first load it has no rules.
func (e *Engine) ManagedPolicy() model.Policy {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.res == nil {
		return model.Policy{}
	}
	return e.res.ManagedPolicy
}

// Close shuts every server down in parallel, within about a second, and
// waits for every goroutine the engine started.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.flushAsksLocked()
	e.closed = true
	close(e.changed) // wake reconnectFor waiters: they see closed
	e.changed = make(chan struct{})
	var conns []session
	for _, en := range e.order {
		en.stopRetry()
		if en.cancel != nil {
			en.cancel()
			en.cancel = nil
		}
		if en.conn != nil {
			conns = append(conns, en.conn)
			en.conn = nil
		}
	}
	w := e.watch
	e.watch = nil
	e.mu.Unlock()

	if w != nil {
		w.close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, len(conns))
	for i, c := range conns {
		wg.Go(func() { errs[i] = c.Close(ctx) })
	}
	wg.Wait()
	e.cancel()
	e.wg.Wait()
	e.pub.close()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("closing servers: %w", err)
	}
	return nil
}
