package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

func TestCodeFlowWithDynamicRegistration(t *testing.T) {
	e := newEnv(t, nil)
	srv := e.server()

	code, err := e.get(srv, "")
	if err != nil || code != http.StatusUnauthorized {
		t.Fatalf("before auth: got %d, %v; want 401", code, err)
	}
	if !e.m.NeedsAuth(srv) {
		t.Fatal("a 401 without token should mark needs-auth")
	}
	if err := e.authenticate(srv); err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	if e.m.NeedsAuth(srv) {
		t.Error("needs-auth should be cleared after a successful flow")
	}
	if len(e.shown) != 1 || !strings.HasPrefix(e.shown[0], e.fake.as.URL+"/authorize?") {
		t.Errorf("showURL got %v", e.shown)
	}
	a := e.fake.Authorizes[0]
	if a.Get("code_challenge_method") != "S256" || a.Get("resource") != e.fake.mcpURL() || a.Get("scope") != "mcp:read" {
		t.Errorf("authorize request: %v", a)
	}
	if !strings.HasPrefix(a.Get("redirect_uri"), "http://127.0.0.1:") {
		t.Errorf("redirect_uri %q is not loopback", a.Get("redirect_uri"))
	}
	if code, err := e.get(srv, ""); err != nil || code != http.StatusOK {
		t.Fatalf("after auth: got %d, %v; want 200", code, err)
	}
	// A second flow reuses the remembered registration.
	if err := e.authenticate(srv); err != nil {
		t.Fatalf("second Authenticate: %v", err)
	}
	if e.fake.Registrations != 1 {
		t.Errorf("registrations = %d, want 1 (remembered per server)", e.fake.Registrations)
	}
	if r := e.fake.LastRegistration; r.ApplicationType != "native" || !slices.Contains(r.GrantTypes, "refresh_token") {
		t.Errorf("registration request %+v: want application_type native and the refresh_token grant", r)
	}
	// A new Manager (restart) finds the token in the keychain.
	m2 := New(e.opts)
	resp, err := m2.HTTPClient(srv).Get(e.fake.mcpURL())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("after restart: %d", resp.StatusCode)
	}
}

func TestRefreshOnExpiry(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.ExpiresIn = 60
	srv := e.server()
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(2 * time.Minute)
	if code, err := e.get(srv, ""); err != nil || code != 200 {
		t.Fatalf("got %d, %v", code, err)
	}
	if n := e.fake.calls("refresh_token"); n != 1 {
		t.Errorf("refreshes = %d, want 1", n)
	}
}

func TestRefreshOn401SharedByConcurrentCallers(t *testing.T) {
	e := newEnv(t, nil)
	srv := e.server()
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	client := e.m.HTTPClient(srv)
	if code, err := e.get(srv, ""); err != nil || code != 200 {
		t.Fatalf("got %d, %v", code, err)
	}
	e.fake.KillAccessTokens()
	var wg sync.WaitGroup
	codes := make([]int, 10)
	for i := range codes {
		wg.Go(func() {
			req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, e.fake.mcpURL(), strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
			resp, err := client.Do(req)
			if err != nil {
				e.note(err)
				return
			}
			resp.Body.Close()
			codes[i] = resp.StatusCode
		})
	}
	wg.Wait()
	for i, c := range codes {
		if c != 200 {
			t.Errorf("caller %d got %d", i, c)
		}
	}
	if n := e.fake.calls("refresh_token"); n != 1 {
		t.Errorf("refreshes = %d, want exactly 1 shared by all callers", n)
	}
}

func TestDeadRefreshTokenNeedsAuth(t *testing.T) {
	e := newEnv(t, nil)
	srv := e.server()
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	e.fake.mu.Lock()
	clear(e.fake.refresh)
	e.fake.mu.Unlock()
	e.fake.KillAccessTokens()
	if code, _ := e.get(srv, ""); code != 401 {
		t.Fatalf("got %d, want 401", code)
	}
	if !e.m.NeedsAuth(srv) {
		t.Error("want needs-auth after the refresh token died")
	}
}

func TestLogoutRevokesAndDeletes(t *testing.T) {
	e := newEnv(t, nil)
	srv := e.server()
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	did, err := e.m.Logout(context.Background(), srv)
	if e.note(err) != nil || did != SignoutRevoked {
		t.Fatalf("Logout: %v, %v", did, err)
	}
	if len(e.fake.Revoked) != 2 {
		t.Errorf("revoked %d tokens, want refresh + access", len(e.fake.Revoked))
	}
	if strings.Contains(e.kr.dump(), "/token") {
		t.Error("token entry still in the keychain after logout")
	}
	if code, _ := e.get(srv, ""); code != 401 {
		t.Errorf("after logout got %d, want 401", code)
	}
}

func TestLogoutWithoutRevocationEndpointStillDeletes(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.RevocationOff = true
	srv := e.server()
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	did, err := e.m.Logout(context.Background(), srv)
	if e.note(err) != nil || did != SignoutDeleted {
		t.Fatalf("Logout: %v, %v; want deleted, not revoked", did, err)
	}
	if strings.Contains(e.kr.dump(), "/token") {
		t.Error("token entry still stored")
	}
	if did, err := e.m.Logout(context.Background(), srv); err != nil || did != SignoutNoTokens {
		t.Errorf("second Logout: %v, %v; want no tokens", did, err)
	}
}

// An authorization server that answers with another state is not
// believed: its code is never exchanged, and the sign-in ends by timing
// out with a word about the ignored callback.
func TestStateMismatchRejected(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.CallbackTimeout = 50 * time.Millisecond })
	e.fake.TamperState = true
	err := e.authenticate(e.server())
	if !errors.Is(err, ErrStateMismatch) || !errors.Is(err, ErrCallbackTimeout) {
		t.Fatalf("got %v, want ErrCallbackTimeout that mentions ErrStateMismatch", err)
	}
	if n := e.fake.calls("authorization_code"); n != 0 {
		t.Errorf("the code was exchanged %d times despite the bad state", n)
	}
}

// A forged callback (wrong state, with a code or with an error) is answered
// with an error page and ignored: the person's sign-in goes on, and the
// real callback that follows completes it.
func TestForgedCallbackIgnored(t *testing.T) {
	e := newEnv(t, nil)
	var forged []int
	lateStatus := 0
	e.browser = func(ctx context.Context, u string) error {
		au, err := url.Parse(u)
		if err != nil {
			return err
		}
		redirect := au.Query().Get("redirect_uri")
		get := func(target string) int {
			c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
			resp, err := c.Do(req)
			if err != nil {
				return 0
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		// An attacker's page hits the callback first: its own code, then an
		// error meant to end the sign-in, then no state at all.
		forged = append(forged,
			get(redirect+"?code=evil&state=guess"),
			get(redirect+"?error=access_denied&error_description=denied&state=guess2"),
			get(redirect+"?code=evil3"),
		)
		// The person's browser then goes through the real authorization.
		if err := e.followBrowser(ctx, u); err != nil {
			return err
		}
		lateStatus = get(redirect + "?code=evil4&state=" + url.QueryEscape(au.Query().Get("state")))
		return nil
	}
	srv := e.server()
	if err := e.authenticate(srv); err != nil {
		t.Fatalf("the forged callbacks ended the sign-in: %v", err)
	}
	for i, st := range forged {
		if st != http.StatusBadRequest {
			t.Errorf("forged callback %d answered %d, want 400", i, st)
		}
	}
	if lateStatus != http.StatusGone {
		t.Errorf("a callback after the real one answered %d, want 410 (one answer only)", lateStatus)
	}
	if n := e.fake.calls("authorization_code"); n != 1 {
		t.Errorf("code exchanges = %d, want 1 (the real code only)", n)
	}
	if code, err := e.get(srv, ""); err != nil || code != http.StatusOK {
		t.Errorf("after the sign-in: %d, %v", code, err)
	}
	if !strings.Contains(e.logs.String(), "ignored OAuth callbacks") {
		t.Error("the ignored callbacks were not logged")
	}
}

func TestCallbackTimeout(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.CallbackTimeout = 50 * time.Millisecond })
	e.browser = func(context.Context, string) error { return nil } // the person never comes back
	if err := e.authenticate(e.server()); !errors.Is(err, ErrCallbackTimeout) {
		t.Fatalf("got %v, want ErrCallbackTimeout", err)
	}
}

func TestCallbackPortBusy(t *testing.T) {
	e := newEnv(t, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	srv := e.server()
	srv.Config.OAuth = &model.OAuthConfig{CallbackPort: port}
	err = e.authenticate(srv)
	if !errors.Is(err, ErrPortBusy) {
		t.Fatalf("got %v, want ErrPortBusy", err)
	}
	if !strings.Contains(err.Error(), "callbackPort") {
		t.Errorf("error should say what to change: %v", err)
	}
}

func TestConfiguredCallbackPortAndPreRegisteredClient(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.PreClientID, e.fake.PreClientSecret = "pre-client", "pre-secret-"+randomID()
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	srv := e.server()
	srv.Config.OAuth = &model.OAuthConfig{ClientID: "pre-client", CallbackPort: port}
	if err := e.m.SetClientSecret(srv, e.fake.PreClientSecret); err != nil {
		t.Fatal(err)
	}
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	if e.fake.Registrations != 0 {
		t.Error("a pre-registered client must not register")
	}
	if got := e.fake.Authorizes[0].Get("redirect_uri"); !strings.Contains(got, ":"+itoa(port)+"/") {
		t.Errorf("redirect_uri %s does not use callbackPort %d", got, port)
	}
}

func TestStepUpUnionOfScopes(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.InlineAuth = true })
	srv := e.server()
	if code, err := e.get(srv, ""); err != nil || code != 200 {
		t.Fatalf("inline auth: got %d, %v", code, err)
	}
	if code, err := e.get(srv, "mcp:read mcp:write"); err != nil || code != 200 {
		t.Fatalf("step-up: got %d, %v", code, err)
	}
	if len(e.fake.Authorizes) != 2 {
		t.Fatalf("authorizations = %d, want 2", len(e.fake.Authorizes))
	}
	if got := e.fake.Authorizes[1].Get("scope"); got != "mcp:read mcp:write" {
		t.Errorf("step-up scope = %q, want the union", got)
	}
}

func TestStepUpRetryLimit(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.InlineAuth = true })
	e.fake.Grantable = []string{"mcp:read"} // never grants mcp:admin
	srv := e.server()
	code, err := e.get(srv, "mcp:read mcp:admin")
	if err != nil || code != http.StatusForbidden {
		t.Fatalf("got %d, %v; want 403 after the retry limit", code, err)
	}
	// One flow for the 401, then at most StepUpLimit step-ups.
	if n := len(e.fake.Authorizes); n > 1+2 {
		t.Errorf("authorizations = %d: step-up looped", n)
	}
}

func TestStepUpWithoutInlineAuthMarks(t *testing.T) {
	e := newEnv(t, nil)
	srv := e.server()
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	if code, _ := e.get(srv, "mcp:read mcp:write"); code != 403 {
		t.Fatalf("got %d, want 403", code)
	}
	if got := strings.Join(e.m.NeedsStepUp(srv), " "); got != "mcp:read mcp:write" {
		t.Errorf("NeedsStepUp = %q", got)
	}
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	if got := e.fake.Authorizes[1].Get("scope"); got != "mcp:read mcp:write" {
		t.Errorf("Authenticate after step-up asked for %q", got)
	}
	if code, _ := e.get(srv, "mcp:read mcp:write"); code != 200 {
		t.Errorf("after step-up got %d", code)
	}
}

func TestNoTokenSendsWithoutAuthorization(t *testing.T) {
	e := newEnv(t, nil)
	var sawAuth bool
	e.opts.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		sawAuth = r.Header.Get("Authorization") != ""
		return &http.Response{StatusCode: 401, Body: http.NoBody, Header: http.Header{}, Request: r}, nil
	})
	m := New(e.opts)
	resp, err := m.HTTPClient(e.server()).Get(e.fake.mcpURL())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 || sawAuth {
		t.Errorf("status %d, Authorization sent = %v", resp.StatusCode, sawAuth)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func itoa(i int) string { return strconv.Itoa(i) }

func TestAuthorizationServerMigrationReregisters(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.InlineAuth = true })
	srv := e.server()
	if code, err := e.get(srv, ""); err != nil || code != 200 {
		t.Fatalf("first: %d, %v", code, err)
	}
	as2 := newFakeAS(t)
	e.fake.moveTo(as2)
	if code, err := e.get(srv, ""); err != nil || code != 200 {
		t.Fatalf("after the move: %d, %v", code, err)
	}
	as2.mu.Lock()
	defer as2.mu.Unlock()
	if as2.Registrations != 1 {
		t.Errorf("registrations at the new AS = %d, want 1", as2.Registrations)
	}
	for _, a := range as2.Authorizes {
		if _, known := e.fake.clients[a.Get("client_id")]; known {
			t.Error("the old AS's client_id was presented to the new AS")
		}
	}
}

func TestTokenEndpointAuthMethods(t *testing.T) {
	for _, method := range []string{authBasic, authPost, ""} {
		t.Run("method="+method, func(t *testing.T) {
			e := newEnv(t, nil)
			e.fake.RegisterMethod = method
			e.fake.ExpiresIn = 60
			srv := e.server()
			if err := e.authenticate(srv); err != nil {
				t.Fatal(err)
			}
			// The refresh authenticates the same way.
			e.clock.Advance(time.Hour)
			if code, err := e.get(srv, ""); err != nil || code != 200 {
				t.Fatalf("after refresh: %d, %v", code, err)
			}
			if e.fake.calls("refresh_token") != 1 {
				t.Errorf("refreshes = %d", e.fake.calls("refresh_token"))
			}
		})
	}
}

func TestTokenFromAnotherProcessIsPickedUp(t *testing.T) {
	e := newEnv(t, nil)
	srv := e.server()
	if code, _ := e.get(srv, ""); code != 401 { // this Manager now knows "no token"
		t.Fatalf("got %d", code)
	}
	other := New(e.opts) // `mcpdeck auth` in another process, same keychain
	if err := e.note(other.Authenticate(context.Background(), srv, nil)); err != nil {
		t.Fatal(err)
	}
	if code, _ := e.get(srv, ""); code != 200 {
		t.Errorf("got %d: the stored token was not picked up", code)
	}
}

// A caller that gives up while the refresh is on the wire must not lose
// the rotated refresh token: the old one is already dead at the AS.
func TestRefreshSavedWhenCallerGivesUp(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var armed atomic.Bool
	e := newEnv(t, func(o *Options) {
		base := o.Transport
		o.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
			resp, err := base.RoundTrip(r)
			if r.URL.Path == "/token" && armed.Load() {
				cancel() // the caller goes away just as the new tokens arrive
			}
			return resp, err
		})
	})
	e.fake.ExpiresIn = 60
	srv := e.server()
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(2 * time.Minute)
	armed.Store(true)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.fake.mcpURL(), nil)
	if resp, err := e.m.HTTPClient(srv).Do(req); err == nil {
		resp.Body.Close()
	}
	if n := e.fake.calls("refresh_token"); n != 1 {
		t.Fatalf("refreshes = %d, want 1", n)
	}
	// A restart finds the rotated tokens, not the dead refresh token.
	e.m = New(e.opts)
	if code, err := e.get(srv, ""); err != nil || code != http.StatusOK {
		t.Fatalf("after restart: %d, %v", code, err)
	}
	if n := e.fake.calls("refresh_token"); n != 1 {
		t.Errorf("refreshes = %d after restart, want still 1", n)
	}
}

func TestAuthenticateRefusesUnapprovedProjectServer(t *testing.T) {
	var requests atomic.Int32
	e := newEnv(t, func(o *Options) {
		base := o.Transport
		o.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
			requests.Add(1)
			return base.RoundTrip(r)
		})
	})
	srv := e.server()
	srv.Scope = model.ScopeProject
	for _, st := range []model.ApprovalStatus{model.ApprovalPending, model.ApprovalChanged, model.ApprovalRejected} {
		srv.Approval.Status = st
		if err := e.authenticate(srv); !errors.Is(err, ErrUntrusted) {
			t.Errorf("%s: got %v, want ErrUntrusted", st, err)
		}
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d requests went out for an unapproved server", n)
	}
	srv.Approval.Status = model.ApprovalApproved
	if err := e.authenticate(srv); err != nil {
		t.Fatalf("approved: %v", err)
	}
}

// An authorization server that quotes the refused token in its error
// description must not get it into our error text.
func TestErrorDescriptionNeverEchoesSentCredentials(t *testing.T) {
	var echo atomic.Bool
	e := newEnv(t, func(o *Options) {
		base := o.Transport
		o.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
			if !echo.Load() || r.URL.Path != "/token" {
				return base.RoundTrip(r)
			}
			b, _ := io.ReadAll(r.Body)
			form, _ := url.ParseQuery(string(b))
			body := `{"error":"invalid_grant","error_description":"refresh token ` + form.Get("refresh_token") + ` is unknown"}`
			return &http.Response{
				StatusCode: http.StatusBadRequest, Header: http.Header{"Content-Type": {"application/json"}},
				Body: io.NopCloser(strings.NewReader(body)), Request: r,
			}, nil
		})
	})
	e.fake.ExpiresIn = 60
	srv := e.server()
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	echo.Store(true)
	e.clock.Advance(2 * time.Minute)
	_, err := e.m.tokens.refresh(context.Background(), srv, e.m.tokens.inUse(srv))
	e.note(err)
	if err == nil || !strings.Contains(err.Error(), "refresh token [redacted] is unknown") {
		t.Errorf("got %v, want the description with the token cut out", err)
	}
	// checkSecrecy (cleanup) fails the test if the token itself shows up.
}

// The token endpoint's error answer reaches our error as one clean line,
// and whatever it quotes of what we sent (the code, the verifier, the
// client secret in the form or the Basic header) is cut out.
func TestTokenErrorCarriesNoSecretsOrControls(t *testing.T) {
	for _, method := range []string{authPost, authBasic} {
		t.Run(method, func(t *testing.T) {
			var sent atomic.Value
			sent.Store([]string(nil))
			e := newEnv(t, func(o *Options) {
				base := o.Transport
				o.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
					if r.URL.Path != "/token" {
						return base.RoundTrip(r)
					}
					b, _ := io.ReadAll(r.Body)
					form, _ := url.ParseQuery(string(b))
					basic := strings.TrimPrefix(r.Header.Get("Authorization"), "Basic ")
					creds := []string{form.Get("code"), form.Get("code_verifier"), form.Get("client_secret"), basic}
					sent.Store(creds)
					desc := "bad \x1b]52;c;aGk=\x07grant\r\n\u202e code=" + form.Get("code") + " verifier=" + form.Get("code_verifier") +
						" secret=" + form.Get("client_secret") + " basic=" + basic + " " + strings.Repeat("x", 2000)
					body, _ := json.Marshal(map[string]string{"error": "invalid_grant\x1b[2J\u009b31m", "error_description": desc})
					return &http.Response{
						StatusCode: http.StatusBadRequest, Header: http.Header{"Content-Type": {"application/json"}},
						Body: io.NopCloser(bytes.NewReader(body)), Request: r,
					}, nil
				})
			})
			e.fake.PreClientID, e.fake.PreClientSecret = "pre-client", "pre-secret-"+randomID()
			e.fake.AuthMethods = []string{method}
			srv := e.server()
			srv.Config.OAuth = &model.OAuthConfig{ClientID: "pre-client"}
			if err := e.m.SetClientSecret(srv, e.fake.PreClientSecret); err != nil {
				t.Fatal(err)
			}
			err := e.authenticate(srv)
			var oe *OAuthError
			if !errors.As(err, &oe) || oe.Code != "invalid_grant" {
				t.Fatalf("got %v, want the token endpoint's invalid_grant", err)
			}
			msg := err.Error()
			assertCleanText(t, msg)
			for _, c := range sent.Load().([]string) {
				if c != "" && strings.Contains(msg, c) {
					t.Errorf("the error quotes a credential we sent (%.6s…)", c)
				}
			}
			if !strings.Contains(msg, "[redacted]") || len(msg) > 600 {
				t.Errorf("want the description kept short with credentials redacted: %q", msg)
			}
		})
	}
}

// A redirect to another origin (or any request elsewhere through the
// server's client) never carries the server's token.
func TestTokenNotSentToAnotherOrigin(t *testing.T) {
	e := newEnv(t, nil)
	srv := e.server()
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	var leaked atomic.Value
	leaked.Store("")
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.Store(r.Header.Get("Authorization"))
	}))
	defer elsewhere.Close()
	redirector := httptest.NewServer(http.RedirectHandler(elsewhere.URL+"/steal", http.StatusTemporaryRedirect))
	defer redirector.Close()
	srv.Config.URL = redirector.URL + "/mcp"
	// Same name and hash: the same token, now for a server that redirects.
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.Config.URL, nil)
	resp, err := e.m.HTTPClient(srv).Do(req)
	if err == nil {
		resp.Body.Close()
		t.Error("a redirect to another origin was followed")
	} else if !strings.Contains(err.Error(), "redirected to another site") {
		t.Errorf("got %v", err)
	}
	if got := leaked.Load().(string); got != "" {
		t.Errorf("the token went to another origin: %.12s…", got)
	}
	// Even a client that follows every redirect sends the token only home.
	follow := e.m.HTTPClient(srv)
	follow.CheckRedirect = nil
	req, _ = http.NewRequestWithContext(context.Background(), http.MethodGet, srv.Config.URL, nil)
	if resp, err := follow.Do(req); err == nil {
		resp.Body.Close()
	}
	if got := leaked.Load().(string); got != "" {
		t.Errorf("the token went to another origin: %.12s…", got)
	}
	if got := portOrigin(mustURL(t, "HTTPS://Example.com/x")); got != portOrigin(mustURL(t, "https://example.com:443/y")) {
		t.Errorf("default port not normalized: %s", got)
	}
	if got := portOrigin(mustURL(t, "wss://example.com/ws")); got != portOrigin(mustURL(t, "https://example.com/ws")) {
		t.Errorf("a WebSocket handshake is not on the server's origin: %s", got)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestAuthorizeURLMustBeWeb(t *testing.T) {
	for _, ep := range []string{"file://host/etc/passwd", "smb://attacker/share", "vscode://x/y", "/relative"} {
		d := &discovery{AS: asMetadata{AuthorizationEndpoint: ep}}
		if _, err := buildAuthorizeURL(d, "c", "http://127.0.0.1:1/callback", "s", "ch", nil); err == nil {
			t.Errorf("%s accepted as an authorization endpoint", ep)
		}
	}
	d := &discovery{AS: asMetadata{AuthorizationEndpoint: "https://as.example.com/authorize?tenant=a"}, Resource: "https://mcp.example.com/mcp"}
	u, err := buildAuthorizeURL(d, "c", "http://127.0.0.1:1/callback", "s", "ch", []string{"a", "b"})
	if err != nil || !strings.Contains(u, "tenant=a") || !strings.Contains(u, "scope=a+b") {
		t.Errorf("got %s, %v", u, err)
	}
}
