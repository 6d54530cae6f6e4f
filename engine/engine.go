// Package engine owns the connection lifecycle of every configured MCP
// server: it connects them in batches, watches and reconnects them, keeps
// their tool/resource/prompt lists, runs calls, and publishes immutable
// snapshots of it all for the TUI and the CLI.
//
// One pure function, lifecycle.Step (engine/lifecycle), decides everything
// that happens to a server: given its state and an event (configured,
// attempt succeeded or failed, connection lost, retry due, call failed, the
// person's actions) it returns the next state, with its structured reason,
// counters and error, and the effects to carry out. The runner (runner.go)
// feeds it events, performs the effects and publishes each change as a
// Snapshot on Updates (one-slot channel: latest wins, the engine never
// blocks). Every state change goes through the model's allowed-transition
// table and is recorded in the server's history. Each connection attempt
// carries a generation number and results of superseded attempts are
// dropped.
//
// The Engine is a thin front over parts that each own their fields: the
// runner (connections and the reducer), config (reload, the person's
// choices), calls, lists, notifications, asks (sampling and elicitation),
// logs (and traffic), skills, subscriptions, health and memory (lists
// remembered between runs, for `mcpdeck serve`). Per server, an
// entry holds one field group per part. One mutex guards them all, taken
// only through locked and withEntry (entry.go), and one function assembles
// what a snapshot shows of a server from the parts (entry.snapshot,
// publish.go).
//
// Environment (read through Options.Load.LookupEnv):
// MCP_SERVER_CONNECTION_BATCH_SIZE (stdio/sdk connects at a time; unset:
// 3, and more while those wait idle, see engine/localgate),
// MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE (20), MCP_TIMEOUT (30 000 ms for
// the handshake, and again for listing), MCP_TOOL_TIMEOUT (100 000 000 ms),
// CLAUDE_CONFIG_DIR (its ide directory, else ~/.claude/ide, holds the lock
// files editors announce their MCP server in: each editor with the project
// open is a dynamic server ide, ide-2...; engine/idefind and engine/ide).
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
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine/filewatch"
	"github.com/mcpdeck/mcpdeck/engine/idefind"
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

	// ClientVersion is the version servers are told mcpdeck is
	// (clientInfo.version): the CLI gives its module version, the one
	// --version and serve's serverInfo say; "" is "dev".
	ClientVersion string

	// Elicit answers servers' elicitation requests (TUI form or CLI
	// policy); nil declines them with a log line.
	Elicit ElicitFunc
	Auth   Authenticator // nil = no OAuth: a 401 means needs-auth
	// CacheDir holds large results, images and stderr logs; "" = defaultCacheDir.
	CacheDir string
	// Watch: watch config files and reload on change, and editors' lock
	// files, so an editor that opens or closes the project comes and goes.
	Watch bool
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
	// Roots answers servers' roots/list; nil answers with the project's
	// root (RootsRequest.Project), as the TUI and the CLI do.
	Roots RootsFunc
	// SamplingCommand, when set, writes the reply to every server's
	// sampling requests (--sampling-command), instead of the person or a
	// server's own "sampling" setting.
	SamplingCommand string
	// RememberLists keeps each server's last tools, prompts, resources
	// and templates per definition in CacheDir, and shows them in
	// snapshots (ServerSnapshot.Remembered) while it is not connected:
	// `mcpdeck serve` answers an agent's first list from them (remember.go).
	RememberLists bool
}

// ErrClosed is returned by actions after Close.
var ErrClosed = errors.New("engine closed")

// ErrUnknownServer is returned for a name that is not configured; the
// error names it, quoted: `no server named "calx"` (unknownServer), the
// one wording every command uses.
var ErrUnknownServer = errors.New("no server named")

// unknownServer is ErrUnknownServer for name.
func unknownServer(name string) error { return fmt.Errorf("%w %q", ErrUnknownServer, name) }

// ErrNotConnected is returned for calls to a server that is not connected.
var ErrNotConnected = errors.New("server not connected")

// ErrDenied is returned when permission rules forbid a tool.
var ErrDenied = errors.New("tool call denied by permission rules")

// DeniedError is a call refused by the permission rules: Tool is its
// exposed name, Rule the deny rule that matched, or, when a settings
// file's rules cannot be read (Unreadable), the sentence saying which and
// what is wrong, which then leads after the call it refused: the cause,
// not a rule that does not exist.
type DeniedError struct {
	Server, Name string // the call: server and the tool's own name
	Tool         string
	Rule         string
	Unreadable   bool
}

func (e *DeniedError) Error() string {
	if e.Unreadable {
		if e.Server == "" { // the TUI's own forms: the screen shows the server
			return e.Rule + " (" + e.Tool + " was not called)"
		}
		return fmt.Sprintf("calling %s on %s: %s (%s was not called)", e.Name, e.Server, e.Rule, e.Tool)
	}
	return fmt.Sprintf("calling %s on %s: %s is denied by a permission rule (%s)", e.Name, e.Server, e.Tool, e.Rule)
}

func (e *DeniedError) Unwrap() error { return ErrDenied }

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

	// mu guards the fields below, every entry and the parts' fields; it is
	// taken only through locked and withEntry (entry.go).
	mu         sync.Mutex
	closed     bool
	started    bool
	batching   bool     // inside Reload: publish once at the end
	toolsDirty bool     // a tool list changed since the last publish (markCollisions, relist.go)
	warnings   []string // the engine's own warnings, shown once in snapshots
	seq        uint64
	res        *config.Resolved
	order      []*entry // display order: scope high→low, then name
	byName     map[string]*entry
	last       Snapshot
	changed    chan struct{} // closed and replaced on every publish

	// The parts, each owning its code and its engine-wide fields; what
	// each keeps per server is its field group in entry.
	run    *runner         // connections, the reducer and its effects (runner.go)
	config *configParts    // reloads and the person's choices (reload.go, choices.go)
	calls  *callParts      // tool calls, reads, prompts, completions (calls.go)
	lists  *listParts      // tools, resources, templates, prompts, skills lists (lists.go)
	notes  *notifyParts    // what servers send unasked, progress (notify.go)
	asks   *askParts       // sampling and elicitation (asks.go, sampling.go, elicit.go)
	logs   *logParts       // log messages and traffic (logs.go, traffic.go)
	skills *skillParts     // skill loading (skillload.go)
	subs   *subParts       // resource subscriptions (subscriptions.go)
	health *healthParts    // requests under way, pings (health.go)
	memory *memoryParts    // lists remembered between runs (remember.go)
	ide    *idefind.Finder // editors found through their lock files (engine/idefind)
	pins   *pinParts       // what servers tell a model, pinned and withheld (pins.go)
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
		opts:    opts,
		set:     readSettings(opts.Load.LookupEnv),
		rnd:     opts.Rand,
		log:     opts.Logger,
		backoff: opts.Backoff,
		errs:    transportErrorOps(),
		load:    config.Load,
		pub:     newPublisher(),
		byName:  map[string]*entry{},
		changed: make(chan struct{}),
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
	e.run = newRunner(e)
	e.config = newConfigParts(e)
	e.calls = &callParts{e: e}
	e.lists = &listParts{e: e}
	e.notes = &notifyParts{e: e, progress: map[string]func(Progress){}}
	e.asks = &askParts{e: e}
	e.logs = &logParts{e: e}
	e.skills = &skillParts{e: e}
	e.subs = &subParts{e: e}
	e.health = &healthParts{e: e}
	e.memory = &memoryParts{e: e}
	e.ide = idefind.New(e.opts.Load.LookupEnv, e.opts.Load.Home, e.log)
	e.pins = &pinParts{e: e, pending: map[string]pendingPins{}}
	return e
}

// Start loads the configuration and begins connecting every runnable
// server. It returns at once; results arrive on Updates.
func (e *Engine) Start(ctx context.Context) error {
	var err error
	e.locked(func() {
		switch {
		case e.closed:
			err = ErrClosed
		case e.started:
			err = errors.New("engine already started")
		}
		e.started = true
	})
	if err != nil {
		return err
	}
	if err := e.Reload(ctx); err != nil {
		return err
	}
	if e.opts.Watch {
		if err := e.ide.Watch(e.ctx, watchDebounce, e.wg.Go, e.Reload); err != nil {
			e.log.Info("editors opening and closing are not noticed", "dir", e.ide.Dir(), "err", err)
		}
		if err := e.config.startWatch(); err != nil {
			e.log.Warn("config watching disabled", "err", err)
			e.locked(func() {
				e.warnings = append(e.warnings, fmt.Sprintf("Config files are not watched (%v): use reload after editing them.", err))
				e.publishLocked()
			})
		}
	}
	return nil
}

// ConnectTimeout is how long one connect may take, and again its listing
// (MCP_TIMEOUT): `mcpdeck serve` waits no longer for a server to come.
func (e *Engine) ConnectTimeout() time.Duration { return e.set.connectTimeout }

// Updates delivers a snapshot after every change. Only the latest unread
// snapshot is kept; the channel closes after Close.
func (e *Engine) Updates() <-chan Snapshot { return e.pub.ch }

// Snapshot returns the current state.
func (e *Engine) Snapshot() (s Snapshot) {
	e.locked(func() { s = e.last })
	return s
}

// ManagedPolicy is the managed policy of the configuration last loaded,
// which judges mcpdeck's own programs (the browser opener); before the
// first load it has no rules.
func (e *Engine) ManagedPolicy() (p model.Policy) {
	e.locked(func() {
		if e.res != nil {
			p = e.res.ManagedPolicy
		}
	})
	return p
}

// DenyRule is the permission rule of the configuration last loaded that
// denies the tool of that exposed name (mcp__server__tool), "" when none
// does: what to tell an agent whose call of a tool no longer offered a
// rule stopped.
func (e *Engine) DenyRule(exposedName string) (rule string) {
	e.locked(func() {
		if e.res == nil {
			return
		}
		if allowed, r := e.res.Permissions.Check(exposedName); !allowed {
			rule = r
		}
	})
	return rule
}

// Close shuts every server down in parallel, within about a second, and
// waits for every goroutine the engine started.
func (e *Engine) Close() error {
	var conns []session
	var w *filewatch.Watcher
	already := false
	e.locked(func() {
		if already = e.closed; already {
			return
		}
		e.asks.flushLocked()
		e.closed = true
		close(e.changed) // wake reconnectFor waiters: they see closed
		e.changed = make(chan struct{})
		for _, en := range e.order {
			if c := e.run.endLocked(en); c != nil {
				conns = append(conns, c)
			}
		}
		w = e.config.watch
		e.config.watch = nil
	})
	if already {
		return nil
	}
	if w != nil {
		w.Close()
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
