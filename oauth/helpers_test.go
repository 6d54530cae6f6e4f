package oauth

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// authenticator is the engine's interface, restated so that a mismatch
// breaks this package's build rather than the engine's.
type authenticator interface {
	HTTPClient(srv model.Server) *http.Client
	Headers(ctx context.Context, srv model.Server) (map[string]string, error)
	NeedsAuth(srv model.Server) bool
	MarkNeedsAuth(srv model.Server)
	Authenticate(ctx context.Context, srv model.Server, showURL func(string)) error
	Warnings() []string
}

var _ authenticator = (*Manager)(nil)

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// memKeyring is an in-memory keychain that can refuse big values, fail or hang.
type memKeyring struct {
	mu     sync.Mutex
	m      map[string]string
	maxLen int
	fail   error
	hang   chan struct{} // non-nil: every call blocks until closed
	calls  int
}

func newMemKeyring() *memKeyring { return &memKeyring{m: map[string]string{}, maxLen: 2500} }

func (k *memKeyring) enter() error {
	k.mu.Lock()
	k.calls++
	hang, fail := k.hang, k.fail
	k.mu.Unlock()
	if hang != nil {
		<-hang
	}
	return fail
}

func (k *memKeyring) Get(service, user string) (string, error) {
	if err := k.enter(); err != nil {
		return "", err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.m[service+"/"+user]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

func (k *memKeyring) Set(service, user, password string) error {
	if err := k.enter(); err != nil {
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(password) > k.maxLen {
		return errors.New("secret too big for this keychain")
	}
	k.m[service+"/"+user] = password
	return nil
}

func (k *memKeyring) Delete(service, user string) error {
	if err := k.enter(); err != nil {
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.m[service+"/"+user]; !ok {
		return ErrNotFound
	}
	delete(k.m, service+"/"+user)
	return nil
}

func (k *memKeyring) dump() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	var b strings.Builder
	for key, v := range k.m {
		b.WriteString(key + "=" + v + "\n")
	}
	return b.String()
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testEnv is a Manager wired to a fake authorization server, with every log
// line and every error kept so that cleanup can check that no secret the
// fake handed out ever appears in them.
type testEnv struct {
	t       *testing.T
	fake    *fakeAS
	m       *Manager
	kr      *memKeyring
	clock   *fakeClock
	logs    *syncBuffer
	opts    Options
	mu      sync.Mutex
	errs    []string
	shown   []string
	browser func(ctx context.Context, u string) error
}

func newEnv(t *testing.T, tweak func(*Options)) *testEnv {
	t.Helper()
	e := &testEnv{t: t, fake: newFakeAS(t), kr: newMemKeyring(), clock: newFakeClock(), logs: &syncBuffer{}}
	tr := &http.Transport{DisableKeepAlives: true}
	t.Cleanup(tr.CloseIdleConnections)
	e.browser = e.followBrowser
	e.opts = Options{
		ConfigDir:      t.TempDir(),
		CacheDir:       t.TempDir(),
		Keyring:        e.kr,
		KeyringTimeout: time.Second,
		Now:            e.clock.Now,
		Transport:      tr,
		OpenBrowser:    func(ctx context.Context, u string) error { return e.browser(ctx, u) },
		Logger:         slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	if tweak != nil {
		tweak(&e.opts)
	}
	e.m = New(e.opts)
	t.Cleanup(e.checkSecrecy)
	return e
}

// followBrowser is a browser that fetches the URL and follows redirects,
// like the conformance suite's $BROWSER.
func (e *testEnv) followBrowser(ctx context.Context, u string) error {
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (e *testEnv) server() model.Server {
	return model.Server{
		Name: "remote", Scope: model.ScopeUser, Hash: "0123456789abcdef0123",
		Config:  model.ServerConfig{Type: model.TransportHTTP, URL: e.fake.mcpURL()},
		Enabled: true, Policy: model.PolicyDecision{Allowed: true},
	}
}

func (e *testEnv) showURL(u string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.shown = append(e.shown, u)
}

// note keeps an error for the secrecy check and returns it.
func (e *testEnv) note(err error) error {
	if err != nil {
		e.mu.Lock()
		e.errs = append(e.errs, err.Error(), strings.TrimSpace(strings.ReplaceAll(err.Error(), "\n", " ")))
		e.mu.Unlock()
	}
	return err
}

func (e *testEnv) authenticate(srv model.Server) error {
	return e.note(e.m.Authenticate(context.Background(), srv, e.showURL))
}

// get sends one GET to the resource through the Manager's client.
func (e *testEnv) get(srv model.Server, needScope string) (int, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, e.fake.mcpURL(), nil)
	if err != nil {
		return 0, err
	}
	if needScope != "" {
		req.Header.Set("X-Need-Scope", needScope)
	}
	resp, err := e.m.HTTPClient(srv).Do(req)
	if err != nil {
		return 0, e.note(err)
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// checkSecrecy looks for every secret in the logs, the errors, the
// warnings, the URLs shown to the person and every file in the cache dir
// (needs-auth.json). Only the keychain and its 0600 fallback file may hold them.
func (e *testEnv) checkSecrecy() {
	e.mu.Lock()
	text := e.logs.String() + "\n" + strings.Join(e.errs, "\n") + "\n" + strings.Join(e.m.Warnings(), "\n") +
		"\n" + strings.Join(e.shown, "\n")
	e.mu.Unlock()
	_ = filepath.WalkDir(e.opts.CacheDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(path)
			text += "\n" + string(b)
		}
		return nil
	})
	for _, s := range e.fake.Issued() {
		if strings.Contains(text, s) {
			e.t.Errorf("a secret issued by the fake AS (%.6s…) appears in logs, errors or warnings", s)
		}
	}
	for _, s := range []string{e.fake.PreClientSecret, e.fake.IDToken} {
		if s != "" && strings.Contains(text, s) {
			e.t.Errorf("a configured secret appears in logs, errors or warnings")
		}
	}
}

func (e *testEnv) serverNamed(name string) model.Server {
	s := model.Server{Name: name, Scope: model.ScopeUser, Hash: "feedfacefeedface99"}
	if e.fake != nil && e.fake.rs != nil {
		s.Config = model.ServerConfig{Type: model.TransportHTTP, URL: e.fake.mcpURL()}
	}
	return s
}
