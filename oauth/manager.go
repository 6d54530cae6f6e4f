package oauth

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/lock"
)

// Options configures a Manager. Zero values give the production behaviour.
type Options struct {
	// ConfigDir is <user config dir>/mcpdeck; credentials.json (the
	// keychain fallback) lives there.
	ConfigDir string
	// CacheDir holds needs-auth.json; "" keeps the needs-auth cache in memory.
	CacheDir string
	// Keyring is the OS keychain; nil = go-keyring.
	Keyring Keyring
	// Store replaces the keychain-with-file-fallback entirely (tests).
	Store Store
	// KeyringTimeout bounds every keychain call; default 3 s.
	KeyringTimeout time.Duration
	// Now is the clock; nil = time.Now.
	Now func() time.Time
	// Transport carries every HTTP request; nil = http.DefaultTransport.
	Transport http.RoundTripper
	// OpenBrowser opens a URL for the person; nil = the one browser opener
	// (launch.OpenBrowser), judged by the server's managed policy.
	OpenBrowser func(ctx context.Context, url string) error
	// CallbackTimeout bounds the wait for the browser; default 5 min.
	CallbackTimeout time.Duration
	// HelperTimeout bounds a headersHelper run; default 10 s.
	HelperTimeout time.Duration
	// HelperCacheTTL is how long a headersHelper's output is reused; default 5 min.
	HelperCacheTTL time.Duration
	// InlineAuth lets HTTPClient run the interactive flow itself on a 401
	// it cannot fix by refreshing, and on 403 insufficient_scope (step-up),
	// then retry the request. Meant for the CLI; the TUI leaves it off and
	// shows needs-auth instead. The flow runs under the request's context,
	// so a sign-in slower than the caller's deadline (the engine's
	// MCP_TIMEOUT) ends as needs-auth; Authenticate has no such limit.
	InlineAuth bool
	// ShowURL receives the authorization URL of inline flows.
	ShowURL func(string)
	// Logger gets events (never token values); nil = discard.
	Logger *slog.Logger
	// ClientName is sent in dynamic registration; default "mcpdeck".
	ClientName string
	// ClientMetadataURL is the default Client ID Metadata Document URL used
	// when a server's config names none.
	ClientMetadataURL string
	// LookupEnv reads MCPDECK_CLIENT_SECRET, MCPDECK_CLIENT_PRIVATE_KEY and
	// MCPDECK_IDP_ID_TOKEN as fallbacks for secrets not in the keychain, and
	// expands ${VAR} in oauth.Extra settings such as privateKeyFile;
	// nil = no environment.
	LookupEnv func(string) (string, bool)
	// StepUpLimit caps step-up re-authorizations per request; default 2.
	StepUpLimit int
	// NeedsAuthTTL is how long a needs-auth verdict is cached; default 15 min.
	NeedsAuthTTL time.Duration
}

// Manager authenticates mcpdeck to remote servers. It is safe for
// concurrent use; one Manager serves every server of a process.
//
// It is a thin front over parts that own their fields, each guarding them
// itself (model/lock): storage (vault), the wire to authorization servers,
// discovery, registration, tokens and refresh, step-up, the two ways to
// obtain a token (the browser's code flow and machine grants), the
// headersHelper cache and the needs-auth cache. Per server, each part
// keeps its own state under the server's name and definition hash.
type Manager struct {
	opts Options
	log  *slog.Logger

	vault   *vault
	wire    *wire
	disco   *discoverer
	reg     *registrar
	tokens  *tokens
	steps   *stepUps
	code    *codeFlow
	machine *machineGrants
	helpers *helperCache
	cache   *needsAuthCache

	// flows serializes the interactive flows (and logouts) of one server.
	flows lock.Map[string, *sync.Mutex]
}

// New builds a Manager.
func New(opts Options) *Manager {
	if opts.KeyringTimeout <= 0 {
		opts.KeyringTimeout = 3 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Transport == nil {
		opts.Transport = http.DefaultTransport
	}
	if opts.CallbackTimeout <= 0 {
		opts.CallbackTimeout = 5 * time.Minute
	}
	if opts.HelperTimeout <= 0 {
		opts.HelperTimeout = 10 * time.Second
	}
	if opts.HelperCacheTTL <= 0 {
		opts.HelperCacheTTL = 5 * time.Minute
	}
	if opts.ClientName == "" {
		opts.ClientName = "mcpdeck"
	}
	if opts.StepUpLimit <= 0 {
		opts.StepUpLimit = 2
	}
	if opts.NeedsAuthTTL <= 0 {
		opts.NeedsAuthTTL = 15 * time.Minute
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	m := &Manager{opts: opts, log: log}
	m.vault = newVault(opts)
	env := env(opts.LookupEnv)
	m.wire = &wire{
		http: &http.Client{Transport: opts.Transport, Timeout: 30 * time.Second, CheckRedirect: checkRedirect},
		now:  opts.Now,
	}
	m.disco = &discoverer{wire: m.wire, log: log}
	m.reg = &registrar{
		vault: m.vault, wire: m.wire, env: env, log: log,
		clientName: opts.ClientName, metadataURL: opts.ClientMetadataURL,
	}
	m.steps = &stepUps{}
	m.machine = &machineGrants{
		disco: m.disco, reg: m.reg, vault: m.vault, wire: m.wire, steps: m.steps,
		env: env, now: opts.Now, helperTimeout: opts.HelperTimeout,
	}
	cachePath := ""
	if opts.CacheDir != "" {
		cachePath = filepath.Join(opts.CacheDir, "needs-auth.json")
	}
	m.cache = &needsAuthCache{path: cachePath, ttl: opts.NeedsAuthTTL, now: opts.Now, log: log}
	m.tokens = &tokens{
		vault: m.vault, wire: m.wire, disco: m.disco, needs: m.cache,
		regrant: m.machine.grant, now: opts.Now, log: log,
	}
	m.code = &codeFlow{
		disco: m.disco, reg: m.reg, wire: m.wire, steps: m.steps, log: log,
		open: opts.OpenBrowser, timeout: opts.CallbackTimeout,
	}
	m.helpers = &helperCache{ttl: opts.HelperCacheTTL, timeout: opts.HelperTimeout, now: opts.Now}
	return m
}

// serially runs f as the only interactive flow (or logout) of srv in
// this Manager.
func (m *Manager) serially(srv model.Server, f func()) {
	var mu *sync.Mutex
	m.flows.Update(stateKey(srv), func(p **sync.Mutex) {
		if *p == nil {
			*p = new(sync.Mutex)
		}
		mu = *p
	})
	lock.With(mu, f)
}

// Warnings lists conditions the person should see, such as the keychain
// fallback file.
func (m *Manager) Warnings() []string { return m.vault.warnings() }

// NeedsAuth reports whether the server answered 401 without a usable token
// within the last 15 minutes (cached in a file across restarts). With
// InlineAuth it is always false: the request itself runs the flow, so a
// cached verdict must not keep the connection from being tried.
func (m *Manager) NeedsAuth(srv model.Server) bool {
	if m.opts.InlineAuth {
		return false
	}
	return m.cache.get(stateKey(srv))
}

// MarkNeedsAuth records that the server wants authentication, and forgets
// cached headersHelper output so that the next attempt runs it again.
func (m *Manager) MarkNeedsAuth(srv model.Server) {
	m.helpers.forget(srv)
	m.cache.mark(srv)
}
