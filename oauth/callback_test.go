package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
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
	if code, _ := getStatus(t, cs.redirectURI+"?code=evil"); code != http.StatusBadRequest {
		t.Errorf("stateless callback answered %d, want 400", code)
	}
	if r := <-cs.result; !errors.Is(r.Err, ErrStateMismatch) || r.Code != "" {
		t.Errorf("result %+v, want ErrStateMismatch and no code", r)
	}
}

// A forgery that reaches the callback while the client is still being
// registered (before any state went to the browser) must meet the real
// state check, not an empty one.
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
	err := e.authenticate(e.server())
	if !errors.Is(err, ErrStateMismatch) {
		t.Fatalf("got %v, want ErrStateMismatch", err)
	}
	if forged != http.StatusBadRequest {
		t.Errorf("forged callback answered %d, want 400", forged)
	}
	if n := e.fake.calls("authorization_code"); n != 0 {
		t.Errorf("a forged code was exchanged %d times", n)
	}
}
