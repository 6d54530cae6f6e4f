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
type Manager struct {
	opts  Options
	store Store
	fb    *fallbackStore // nil when Options.Store was given
	http  *http.Client
	log   *slog.Logger
	cache *needsAuthCache

	mu      sync.Mutex
	servers map[string]*serverState
	// nonces are the latest DPoP nonces, by origin.
	nonces dpopNonces
}

// serverState is what the Manager knows about one server (name + hash).
type serverState struct {
	mu      sync.Mutex
	tok     *tokenRecord
	loaded  bool
	refresh *flight
	// hints from the last 401's WWW-Authenticate; challenged means a 401 or
	// 403 was seen (even without hints), so discovery need not probe.
	challenged   bool
	hintMetadata string
	hintScopes   []string
	// step-up: scopes the server asked for with 403 insufficient_scope
	stepUpScopes []string
	// lacking: scopes of a 403 insufficient_scope that reached the caller
	// unresolved; cleared by the next sign-in (see MissingScopes)
	lacking []string

	// flowMu serializes interactive flows for one server.
	flowMu sync.Mutex

	// headersHelper output cache
	helperMu      sync.Mutex
	helperHeaders map[string]string
	helperAt      time.Time
}

type flight struct {
	done chan struct{}
	tok  *tokenRecord
	err  error
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
	m := &Manager{
		opts:    opts,
		http:    &http.Client{Transport: opts.Transport, Timeout: 30 * time.Second, CheckRedirect: checkRedirect},
		log:     opts.Logger,
		servers: map[string]*serverState{},
	}
	if m.log == nil {
		m.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Store != nil {
		m.store = opts.Store
	} else {
		kr := opts.Keyring
		if kr == nil {
			kr = SystemKeyring{}
		}
		m.fb = &fallbackStore{
			kc:   &keychainStore{kr: kr, timeout: opts.KeyringTimeout},
			file: &fileStore{path: filepath.Join(opts.ConfigDir, "credentials.json")},
		}
		m.store = m.fb
	}
	cachePath := ""
	if opts.CacheDir != "" {
		cachePath = filepath.Join(opts.CacheDir, "needs-auth.json")
	}
	m.cache = &needsAuthCache{path: cachePath, ttl: opts.NeedsAuthTTL, now: opts.Now}
	return m
}

func stateKey(srv model.Server) string { return srv.Name + "@" + srv.Hash }

func (m *Manager) state(srv model.Server) *serverState {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := stateKey(srv)
	st, ok := m.servers[k]
	if !ok {
		st = &serverState{}
		m.servers[k] = st
	}
	return st
}

// Warnings lists conditions the person should see, such as the keychain
// fallback file.
func (m *Manager) Warnings() []string {
	if m.fb == nil {
		return nil
	}
	if w := m.fb.Warning(); w != "" {
		return []string{w}
	}
	return nil
}

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
	st := m.state(srv)
	st.helperMu.Lock()
	st.helperHeaders = nil
	st.helperMu.Unlock()
	if err := m.cache.set(stateKey(srv)); err != nil {
		m.log.Warn("needs-auth cache not saved", "server", srv.Name, "err", err)
	}
}

func (m *Manager) clearNeedsAuth(srv model.Server) {
	if err := m.cache.clear(stateKey(srv)); err != nil {
		m.log.Warn("needs-auth cache not saved", "server", srv.Name, "err", err)
	}
}

func (m *Manager) lookupEnv(name string) string {
	if m.opts.LookupEnv == nil {
		return ""
	}
	v, _ := m.opts.LookupEnv(name)
	return v
}
