package oauth

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/zalando/go-keyring"
)

func TestKeychainChunksLargeValues(t *testing.T) {
	kr := newMemKeyring()
	s := &keychainStore{kr: kr, timeout: time.Second}
	ctx := context.Background()
	big := strings.Repeat("abcdefghij", 700) // 7 KB, over the 2.5 KB entry limit
	if err := s.Set(ctx, "k", big); err != nil {
		t.Fatal(err)
	}
	for key, v := range kr.m {
		if len(v) > chunkSize {
			t.Errorf("entry %s holds %d bytes", key, len(v))
		}
	}
	got, err := s.Get(ctx, "k")
	if err != nil || got != big {
		t.Fatalf("round trip failed: %v", err)
	}
	// Multi-byte text is cut between characters: every entry stays valid UTF-8.
	text := strings.Repeat("é€😀", 600)
	if err := s.Set(ctx, "u", text); err != nil {
		t.Fatal(err)
	}
	for key, v := range kr.m {
		if !utf8.ValidString(v) || len(v) > chunkSize {
			t.Errorf("entry %s: %d bytes, valid UTF-8 %v", key, len(v), utf8.ValidString(v))
		}
	}
	if got, err := s.Get(ctx, "u"); err != nil || got != text {
		t.Fatalf("UTF-8 round trip failed: %v", err)
	}
	if err := s.Delete(ctx, "u"); err != nil {
		t.Fatal(err)
	}
	// Shrinking removes the old chunks.
	if err := s.Set(ctx, "k", "small"); err != nil {
		t.Fatal(err)
	}
	if len(kr.m) != 1 {
		t.Errorf("%d entries left after shrinking, want 1", len(kr.m))
	}
	if err := s.Delete(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "k"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after delete: %v", err)
	}
}

func TestKeychainTimeoutFallsBackToFile(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.KeyringTimeout = 20 * time.Millisecond })
	e.kr.hang = make(chan struct{})
	t.Cleanup(func() { close(e.kr.hang) })
	srv := e.server()
	if err := e.authenticate(srv); err != nil {
		t.Fatalf("Authenticate with a hanging keychain: %v", err)
	}
	w := e.m.Warnings()
	path := filepath.Join(e.opts.ConfigDir, "credentials.json")
	if len(w) != 1 || !strings.Contains(w[0], path) || !strings.Contains(w[0], "0600") {
		t.Fatalf("warnings = %v", w)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("credentials file mode %v, want 0600", fi.Mode().Perm())
	}
	if code, _ := e.get(srv, ""); code != 200 {
		t.Errorf("token from the file not used: %d", code)
	}
}

func TestFailingSystemKeyringFallsBack(t *testing.T) {
	keyring.MockInitWithError(errors.New("org.freedesktop.secrets was not provided by any .service files"))
	t.Cleanup(keyring.MockInit)
	dir := t.TempDir()
	m := New(Options{ConfigDir: dir})
	srv := (&testEnv{fake: &fakeAS{}}).serverNamed("x")
	if err := m.SetClientSecret(srv, "s3cret"); err != nil {
		t.Fatal(err)
	}
	got, err := m.vault.secret(context.Background(), srv, kindClientSecret)
	if err != nil || got != "s3cret" {
		t.Fatalf("got %q, %v", got, err)
	}
	if w := m.Warnings(); len(w) != 1 || !strings.Contains(w[0], "no keychain") {
		t.Errorf("warnings = %v", w)
	}
}

func TestSystemKeyringMock(t *testing.T) {
	keyring.MockInit()
	// A session bus to reach, so the keychain is asked: the mock answers.
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
	m := New(Options{ConfigDir: t.TempDir()})
	srv := (&testEnv{fake: &fakeAS{}}).serverNamed("y")
	if err := m.SetPrivateKey(srv, strings.Repeat("k", 5000)); err != nil {
		t.Fatal(err)
	}
	got, _ := m.vault.secret(context.Background(), srv, kindPrivateKey)
	if len(got) != 5000 {
		t.Errorf("got %d bytes back", len(got))
	}
	if m.Warnings() != nil {
		t.Errorf("unexpected warnings %v", m.Warnings())
	}
	if err := m.SetPrivateKey(srv, ""); err != nil {
		t.Fatal(err)
	}
	if got, _ := m.vault.secret(context.Background(), srv, kindPrivateKey); got != "" {
		t.Error("not deleted")
	}
}

func TestNeedsAuthCacheSurvivesRestartAndExpires(t *testing.T) {
	clock := newFakeClock()
	opts := Options{CacheDir: t.TempDir(), Store: newMapStore(), Now: clock.Now}
	srv := (&testEnv{fake: &fakeAS{}}).serverNamed("n")
	m := New(opts)
	if m.NeedsAuth(srv) {
		t.Fatal("fresh: needs-auth")
	}
	m.MarkNeedsAuth(srv)
	if !New(opts).NeedsAuth(srv) {
		t.Fatal("needs-auth lost on restart")
	}
	clock.Advance(14 * time.Minute)
	if !m.NeedsAuth(srv) {
		t.Error("expired too early")
	}
	clock.Advance(time.Minute)
	if m.NeedsAuth(srv) {
		t.Error("still cached after 15 minutes")
	}
	other := srv
	other.Hash = "different"
	m.MarkNeedsAuth(srv)
	if m.NeedsAuth(other) {
		t.Error("a changed config must not inherit needs-auth")
	}
}

// mapStore is a plain in-memory Store.
type mapStore struct{ m map[string]string }

func newMapStore() *mapStore { return &mapStore{m: map[string]string{}} }

func (s *mapStore) Get(_ context.Context, k string) (string, error) {
	v, ok := s.m[k]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

func (s *mapStore) Set(_ context.Context, k, v string) error { s.m[k] = v; return nil }

func (s *mapStore) Delete(_ context.Context, k string) error {
	if _, ok := s.m[k]; !ok {
		return ErrNotFound
	}
	delete(s.m, k)
	return nil
}

func TestNeedsAuthIgnoredWithInlineAuth(t *testing.T) {
	opts := Options{CacheDir: t.TempDir(), Store: newMapStore()}
	srv := (&testEnv{fake: &fakeAS{}}).serverNamed("n")
	New(opts).MarkNeedsAuth(srv)
	opts.InlineAuth = true
	if New(opts).NeedsAuth(srv) {
		t.Error("an inline-auth Manager must try the connection anyway")
	}
}

func TestCheckStoreAndHasToken(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.KeyringTimeout = 20 * time.Millisecond })
	srv := e.server()
	if w := e.m.CheckStore(context.Background()); len(w) != 0 {
		t.Fatalf("working keychain: %v", w)
	}
	if ok, err := e.m.HasToken(context.Background(), srv); ok || err != nil {
		t.Fatalf("HasToken before auth: %v, %v", ok, err)
	}
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	if ok, _ := e.m.HasToken(context.Background(), srv); !ok {
		t.Error("HasToken after auth: false")
	}
	e.kr.mu.Lock()
	e.kr.fail = errors.New("The name org.freedesktop.secrets was not provided")
	e.kr.mu.Unlock()
	// A failing keychain that never had to hold anything is no news; the
	// warning comes with the first secret written to the file.
	m := New(e.opts)
	if w := m.CheckStore(context.Background()); len(w) != 0 {
		t.Errorf("failing keychain, nothing stored: warnings %v", w)
	}
	if err := m.Authenticate(context.Background(), srv, nil); err != nil {
		t.Fatal(err)
	}
	if w := m.Warnings(); len(w) != 1 || !strings.Contains(w[0], "no keychain") {
		t.Errorf("failing keychain, token stored in the file: warnings %v", w)
	}
}

func TestFileStoreConcurrentWritersKeepEveryEntry(t *testing.T) {
	path := filepath.Join(t.TempDir(), "credentials.json")
	// Two stores on one file: two mcpdeck processes.
	a, b := &fileStore{path: path}, &fileStore{path: path}
	ctx := context.Background()
	done := make(chan error, 2)
	for i, s := range []*fileStore{a, b} {
		go func() {
			for j := range 20 {
				if err := s.Set(ctx, fmt.Sprintf("k%d-%d", i, j), "v"); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	m, err := a.load()
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != 40 {
		t.Errorf("%d entries survived, want 40", len(m))
	}
}

// The promised limits are the defaults: keychain calls 3 s, headersHelper
// 10 s, needs-auth 15 min, two step-ups per request.
func TestDefaults(t *testing.T) {
	o := New(Options{Store: newMapStore()}).opts
	if o.KeyringTimeout != 3*time.Second || o.HelperTimeout != 10*time.Second ||
		o.NeedsAuthTTL != 15*time.Minute || o.StepUpLimit != 2 || o.CallbackTimeout != 5*time.Minute {
		t.Errorf("defaults: keychain %s, helper %s, needs-auth %s, step-ups %d, callback %s",
			o.KeyringTimeout, o.HelperTimeout, o.NeedsAuthTTL, o.StepUpLimit, o.CallbackTimeout)
	}
}

// writeOnlyFails is a keychain that reads (finding nothing) but cannot
// write, like a locked Secret Service collection.
type writeOnlyFails struct{ *memKeyring }

func (writeOnlyFails) Set(string, string, string) error {
	return errors.New("cannot create an item in a locked collection")
}

// TestStorageIsWhereTokensGo: Storage says the keychain while it takes a
// write, and the 0600 file, with the keychain's error, when it does not,
// even when it still answers reads; the token stored next goes where it
// said. CheckStore's read alone said nothing was wrong.
func TestStorageIsWhereTokensGo(t *testing.T) {
	e := newEnv(t, nil)
	if s := e.m.Storage(context.Background()); !s.Keychain || s.Reason != "" {
		t.Errorf("working keychain: %+v", s)
	}
	if _, ok := e.kr.m[keychainService+"/"+probeKey]; ok {
		t.Error("the probe entry was left in the keychain")
	}

	opts := e.opts
	opts.Keyring = writeOnlyFails{newMemKeyring()}
	m := New(opts)
	if w := m.CheckStore(context.Background()); len(w) != 0 {
		t.Fatalf("CheckStore: %v", w)
	}
	s := m.Storage(context.Background())
	file := filepath.Join(opts.ConfigDir, "credentials.json")
	if s.Keychain || s.File != file || !strings.Contains(s.Reason, "locked collection") {
		t.Fatalf("keychain that cannot write: %+v, want the file %s and why", s, file)
	}
	srv := e.server()
	if err := m.Authenticate(context.Background(), srv, nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(b), "token") {
		t.Errorf("the token did not go to %s: %v %s", file, err, b)
	}
}
