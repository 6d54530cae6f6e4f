package oauth

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

func helperServer(t *testing.T, script string) model.Server {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("sh scripts")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "headers.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	return model.Server{
		Name: "h", Scope: model.ScopeUser, Source: filepath.Join(dir, "settings.json"),
		Config: model.ServerConfig{
			Type: model.TransportHTTP, URL: "https://mcp.example.com/mcp",
			Headers:       map[string]string{"X-Static": "1", "X-Over": "static"},
			HeadersHelper: "./headers.sh",
		},
	}
}

func TestHeadersHelperOverridesStatic(t *testing.T) {
	srv := helperServer(t, `printf '{"X-Over":"dynamic","X-Who":"%s %s"}' "$MCPDECK_SERVER_NAME" "$MCPDECK_SERVER_URL"`)
	m := New(Options{Store: newMapStore()})
	h, err := m.Headers(context.Background(), srv)
	if err != nil {
		t.Fatal(err)
	}
	if h["X-Static"] != "1" || h["X-Over"] != "dynamic" || h["X-Who"] != "h https://mcp.example.com/mcp" {
		t.Errorf("headers = %v", h)
	}
}

func TestHeadersHelperFailing(t *testing.T) {
	srv := helperServer(t, `echo "token service down" >&2; exit 3`)
	m := New(Options{Store: newMapStore()})
	_, err := m.Headers(context.Background(), srv)
	if !errors.Is(err, ErrHelper) || !strings.Contains(err.Error(), "status 3") || !strings.Contains(err.Error(), "token service down") {
		t.Fatalf("got %v", err)
	}
}

func TestHeadersHelperBadOutputNotEchoed(t *testing.T) {
	srv := helperServer(t, `echo 'Authorization: Bearer supersecretvalue'`)
	m := New(Options{Store: newMapStore()})
	_, err := m.Headers(context.Background(), srv)
	if !errors.Is(err, ErrHelper) || strings.Contains(err.Error(), "supersecretvalue") {
		t.Fatalf("got %v", err)
	}
}

func TestHeadersHelperSlowTimesOut(t *testing.T) {
	srv := helperServer(t, `sleep 30 & wait`)
	m := New(Options{Store: newMapStore(), HelperTimeout: 100 * time.Millisecond})
	start := time.Now()
	_, err := m.Headers(context.Background(), srv)
	if !errors.Is(err, ErrHelper) || !strings.Contains(err.Error(), "did not finish within 100ms") {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v: the helper's children kept us waiting", d)
	}
}

func TestHeadersHelperNotRunForUnapprovedProject(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	srv := helperServer(t, `touch `+textsafe.QuoteArg(marker)+`; echo '{}'`)
	srv.Scope = model.ScopeProject
	srv.Approval.Status = model.ApprovalPending
	m := New(Options{Store: newMapStore()})
	if _, err := m.Headers(context.Background(), srv); !errors.Is(err, ErrUntrusted) {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the helper ran for an unapproved project server")
	}
	srv.Approval.Status = model.ApprovalApproved
	if _, err := m.Headers(context.Background(), srv); err != nil {
		t.Fatalf("approved: %v", err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("the helper did not run once approved")
	}
}

func TestHeadersWithoutHelper(t *testing.T) {
	m := New(Options{Store: newMapStore()})
	srv := model.Server{Scope: model.ScopeProject, Config: model.ServerConfig{Headers: map[string]string{"A": "b"}}}
	h, err := m.Headers(context.Background(), srv)
	if err != nil || h["A"] != "b" {
		t.Fatalf("got %v, %v", h, err)
	}
}

func TestHeadersHelperCachedAndRerunAfterNeedsAuth(t *testing.T) {
	count := filepath.Join(t.TempDir(), "count")
	srv := helperServer(t, `echo x >> `+textsafe.QuoteArg(count)+`; echo '{"X-N":"1"}'`)
	clock := newFakeClock()
	m := New(Options{Store: newMapStore(), Now: clock.Now, HelperCacheTTL: time.Minute})
	runs := func() int {
		b, _ := os.ReadFile(count)
		return strings.Count(string(b), "x")
	}
	for range 3 {
		if _, err := m.Headers(context.Background(), srv); err != nil {
			t.Fatal(err)
		}
	}
	if runs() != 1 {
		t.Fatalf("helper ran %d times for 3 requests, want 1", runs())
	}
	clock.Advance(time.Minute)
	_, _ = m.Headers(context.Background(), srv)
	if runs() != 2 {
		t.Errorf("helper ran %d times after the TTL, want 2", runs())
	}
	m.MarkNeedsAuth(srv)
	_, _ = m.Headers(context.Background(), srv)
	if runs() != 3 {
		t.Errorf("helper ran %d times after a 401, want 3", runs())
	}
}
