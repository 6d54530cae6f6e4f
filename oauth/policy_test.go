package oauth

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model/launch"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/testdata/launchtest"
)

// TestHeadersHelperDeniedByPolicy: under deniedMcpServers [["*"]] a remote
// server's headersHelper does not run, and the error names the rule.
func TestHeadersHelperDeniedByPolicy(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	srv := helperServer(t, `touch `+marker+`; echo '{}'`)
	srv.ManagedPolicy = launchtest.Load(t, launchtest.DenyAll, nil).ManagedPolicy
	_, err := New(Options{Store: newMapStore()}).Headers(context.Background(), srv)
	if !errors.Is(err, ErrHelper) || !errors.Is(err, launch.ErrBlocked) || !strings.Contains(err.Error(), launchtest.DenyAllRule) {
		t.Fatalf("got %v", err)
	}
	if launchtest.Ran(marker) {
		t.Fatal("the denied headersHelper ran")
	}
}

// TestAssertionCommandDeniedByPolicy: under deniedMcpServers [["*"]] an
// oauth.assertionCommand does not run, no token is asked for, and the
// error names the rule.
func TestAssertionCommandDeniedByPolicy(t *testing.T) {
	e, srv, jwt := wifEnv(t)
	marker := filepath.Join(t.TempDir(), "ran")
	srv.Config.OAuth.AssertionCommand = "touch " + textsafe.QuoteArg(marker) + "; echo " + jwt
	srv.ManagedPolicy = launchtest.Load(t, launchtest.DenyAll, nil).ManagedPolicy
	err := e.authenticate(srv)
	if !errors.Is(err, ErrAssertion) || !errors.Is(err, launch.ErrBlocked) || !strings.Contains(err.Error(), launchtest.DenyAllRule) {
		t.Fatalf("got %v", err)
	}
	if launchtest.Ran(marker) || len(e.fake.TokenCalls) != 0 {
		t.Fatalf("ran %v, token calls %v", launchtest.Ran(marker), e.fake.TokenCalls)
	}
}

// TestBrowserOpenerDeniedShowsTheURL: the sign-in's browser opener is
// judged by policy like any program; refused, it does not run and the
// person still has the URL to copy. Without the policy it runs.
func TestBrowserOpenerDeniedShowsTheURL(t *testing.T) {
	script, marker := launchtest.Marker(t, filepath.Join(t.TempDir(), "browser"))
	t.Setenv("BROWSER", script)
	for _, policy := range []string{launchtest.DenyAll, ""} {
		e := newEnv(t, func(o *Options) {
			o.OpenBrowser = nil // the real opener
			o.CallbackTimeout = 200 * time.Millisecond
		})
		srv := e.server()
		srv.ManagedPolicy = launchtest.Load(t, policy, nil).ManagedPolicy
		if err := e.authenticate(srv); !errors.Is(err, ErrCallbackTimeout) {
			t.Fatalf("policy %q: %v", policy, err)
		}
		if len(e.shown) != 1 || !strings.HasPrefix(e.shown[0], "http") {
			t.Errorf("policy %q: shown %q", policy, e.shown)
		}
		if launchtest.Ran(marker) != (policy == "") {
			t.Fatalf("policy %q: the opener ran: %v", policy, launchtest.Ran(marker))
		}
	}
}
