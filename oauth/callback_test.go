package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// getStatus fetches u and returns the status and body.
func getStatus(t *testing.T, u string) (int, string) {
	t.Helper()
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestCallbackServerLoopbackOneShotFriendly(t *testing.T) {
	cs, err := listenCallback(context.Background(), 0, "the-state")
	if err != nil {
		t.Fatal(err)
	}
	go cs.serve()
	defer cs.close()
	addr := cs.ln.Addr().(*net.TCPAddr)
	if !addr.IP.Equal(net.IPv4(127, 0, 0, 1)) {
		t.Fatalf("callback listens on %s, want 127.0.0.1 only", addr.IP)
	}
	if !strings.HasPrefix(cs.redirectURI, "http://127.0.0.1:") {
		t.Errorf("redirect URI %s", cs.redirectURI)
	}
	// Only /callback is served, and other paths do not use up the one shot.
	if code, _ := getStatus(t, strings.Replace(cs.redirectURI, "/callback", "/other", 1)+"?state=the-state&code=c"); code != http.StatusNotFound {
		t.Errorf("other path answered %d", code)
	}
	code, body := getStatus(t, cs.redirectURI+"?state=the-state&code=the-code")
	if code != http.StatusOK || !strings.Contains(body, "You can close this tab") {
		t.Errorf("callback answered %d %q, want a friendly page", code, body)
	}
	if strings.Contains(body, "the-code") || strings.Contains(body, "the-state") {
		t.Error("the page echoes the code or state")
	}
	if r := <-cs.result; r.Err != nil || r.Code != "the-code" {
		t.Errorf("result %+v", r)
	}
	if code, _ := getStatus(t, cs.redirectURI+"?state=the-state&code=again"); code != http.StatusGone {
		t.Errorf("second callback answered %d, want 410", code)
	}
}

func TestCallbackWithoutStateRejected(t *testing.T) {
	if _, err := listenCallback(context.Background(), 0, ""); err == nil {
		t.Fatal("a callback server without a state was started")
	}
	cs, err := listenCallback(context.Background(), 0, "s")
	if err != nil {
		t.Fatal(err)
	}
	go cs.serve()
	defer cs.close()
	for _, q := range []string{"?code=evil", "?state=t&code=evil", "?state=&error=access_denied", "?state=S&code=evil"} {
		if code, body := getStatus(t, cs.redirectURI+q); code != http.StatusBadRequest || !strings.Contains(body, "ignored") {
			t.Errorf("%s answered %d %q, want 400 and a page saying it was ignored", q, code, body)
		}
	}
	// The handler has answered: anything it delivered is in the channel.
	select {
	case r := <-cs.result:
		t.Fatalf("a callback without our state was delivered: %+v", r)
	default:
	}
	if n := cs.ignored.Load(); n != 4 {
		t.Errorf("ignored = %d, want 4", n)
	}
	if code, _ := getStatus(t, cs.redirectURI+"?state=s&code=good"); code != http.StatusOK {
		t.Errorf("the real callback answered %d", code)
	}
	if r := <-cs.result; r.Err != nil || r.Code != "good" {
		t.Errorf("result %+v, want the real code", r)
	}
}

// An error from the authorization server (with our state) ends the flow,
// but its code and description reach the error cleaned for the terminal.
func TestCallbackErrorIsCleaned(t *testing.T) {
	cs, err := listenCallback(context.Background(), 0, "s")
	if err != nil {
		t.Fatal(err)
	}
	go cs.serve()
	defer cs.close()
	q := url.Values{"state": {"s"}, "error": {"access_denied\x1b]52;c;aGk=\x07"}, "error_description": {"no\r\n\x1b[2Jway \u202e"}}
	if code, _ := getStatus(t, cs.redirectURI+"?"+q.Encode()); code != http.StatusBadRequest {
		t.Errorf("error callback answered %d", code)
	}
	r := <-cs.result
	var oe *OAuthError
	if !errors.As(r.Err, &oe) {
		t.Fatalf("result %+v, want an OAuthError", r)
	}
	assertCleanText(t, r.Err.Error())
	if !strings.Contains(oe.Code, "access_denied") || !strings.Contains(oe.Description, "way") {
		t.Errorf("the error lost its words: %q", r.Err.Error())
	}
}

// assertCleanText fails when s holds a control character, an escape or a
// bidi override: text that could drive a terminal.
func assertCleanText(t *testing.T, s string) {
	t.Helper()
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u202e' {
			t.Errorf("error text holds %U: %q", r, s)
			return
		}
	}
}

// A forgery that reaches the callback while the client is still being
// registered (before any state went to the browser) meets the real state
// check, not an empty one: it is refused and the sign-in completes.
func TestForgedCallbackDuringRegistrationRejected(t *testing.T) {
	var forged int
	e := newEnv(t, func(o *Options) {
		base := o.Transport
		o.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/register") {
				b, _ := io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(b))
				var reg registration
				if err := json.Unmarshal(b, &reg); err == nil && len(reg.RedirectURIs) == 1 {
					forged, _ = getStatus(t, reg.RedirectURIs[0]+"?code=evil")
				}
			}
			return base.RoundTrip(r)
		})
	})
	if err := e.authenticate(e.server()); err != nil {
		t.Fatalf("the forgery ended the sign-in: %v", err)
	}
	if forged != http.StatusBadRequest {
		t.Errorf("forged callback answered %d, want 400", forged)
	}
	if n := e.fake.calls("authorization_code"); n != 1 {
		t.Errorf("code exchanges = %d, want 1 (the real code only)", n)
	}
}
