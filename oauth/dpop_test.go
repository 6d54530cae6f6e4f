package oauth

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestDPoPBoundTokenWithFreshProofPerRequest(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.DPoP = true
	e.fake.ExpiresIn = 60
	srv := e.server()
	if code, err := e.get(srv, ""); err != nil || code != http.StatusUnauthorized {
		t.Fatalf("before auth: got %d, %v; want 401", code, err)
	}
	if err := e.authenticate(srv); err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	for i := range 2 {
		if code, err := e.get(srv, ""); err != nil || code != http.StatusOK {
			t.Fatalf("request %d: got %d, %v; want 200 (proof errors: %v)", i, code, err, e.fake.DPoPErrors)
		}
	}
	if !strings.HasPrefix(e.fake.LastAuth, "DPoP ") || e.fake.LastProof == "" {
		t.Errorf("resource saw Authorization %q with proof %q; want the DPoP scheme and a proof", e.fake.LastAuth, e.fake.LastProof)
	}
	if !strings.Contains(e.kr.dump(), "dpop_key") {
		t.Error("the DPoP key is not stored with the token")
	}
	// The refresh is a token request too: it needs a proof by the same key.
	e.clock.Advance(2 * time.Minute)
	if code, err := e.get(srv, ""); err != nil || code != http.StatusOK {
		t.Fatalf("after expiry: got %d, %v (proof errors: %v)", code, err, e.fake.DPoPErrors)
	}
	if n := e.fake.calls("refresh_token"); n != 1 {
		t.Errorf("refreshes = %d, want 1", n)
	}
	// A restart takes the key from the keychain with the token.
	resp, err := New(e.opts).HTTPClient(srv).Get(e.fake.mcpURL())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("after restart: %d (proof errors: %v)", resp.StatusCode, e.fake.DPoPErrors)
	}
	if len(e.fake.DPoPErrors) > 0 {
		t.Errorf("proofs refused: %v", e.fake.DPoPErrors)
	}
}

func TestDPoPNonceRetriedAtTokenEndpointAndResource(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.DPoP = true
	e.fake.DPoPNonce = "nonce-1"
	srv := e.server()
	if err := e.authenticate(srv); err != nil {
		t.Fatalf("Authenticate: %v (proof errors: %v)", err, e.fake.DPoPErrors)
	}
	if n, c := e.fake.NonceRefusals["as"], e.fake.calls("authorization_code"); n != 1 || c != 2 {
		t.Errorf("token endpoint: %d nonce refusals and %d code requests; want 1 and 2 (one retry with the nonce)", n, c)
	}
	for i := range 2 {
		if code, err := e.get(srv, ""); err != nil || code != http.StatusOK {
			t.Fatalf("request %d: got %d, %v; want 200 (proof errors: %v)", i, code, err, e.fake.DPoPErrors)
		}
	}
	// The first request learns the resource's nonce; the second uses it.
	if n := e.fake.NonceRefusals["rs"]; n != 1 {
		t.Errorf("resource nonce refusals = %d, want 1", n)
	}
	if len(e.fake.DPoPErrors) > 0 {
		t.Errorf("proofs refused: %v", e.fake.DPoPErrors)
	}
}

func TestDPoPNonceRetriedOnlyOnce(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.DPoP = true
	srv := e.server()
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	// A resource that hands out a new nonce with every refusal: one
	// retry with the nonce it gave, then its 401 goes to the caller.
	e.fake.mu.Lock()
	e.fake.DPoPNonce, e.fake.RotateNonce = "first", true
	e.fake.mu.Unlock()
	rt := e.m.HTTPClient(srv).Transport.(*authTransport)
	tok := e.m.tokens.inUse(srv)
	req, _ := http.NewRequest(http.MethodGet, e.fake.mcpURL(), nil)
	resp, err := rt.send(req, tok)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || e.fake.NonceRefusals["rs"] != 2 {
		t.Errorf("got %d after %d nonce refusals; want 401 after 2 (one retry)", resp.StatusCode, e.fake.NonceRefusals["rs"])
	}
}

func TestNonDPoPServerKeepsBearer(t *testing.T) {
	e := newEnv(t, nil)
	srv := e.server()
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	if code, err := e.get(srv, ""); err != nil || code != http.StatusOK {
		t.Fatalf("got %d, %v", code, err)
	}
	if !strings.HasPrefix(e.fake.LastAuth, "Bearer ") || e.fake.LastProof != "" {
		t.Errorf("resource saw Authorization %q with proof %q; want Bearer and no proof", e.fake.LastAuth, e.fake.LastProof)
	}
	if strings.Contains(e.kr.dump(), "dpop_key") {
		t.Error("a DPoP key was made for a server that does not take DPoP")
	}
}

func TestDPoPProofHTUWithoutQueryOrFragment(t *testing.T) {
	key, _, err := newDPoPKey()
	if err != nil {
		t.Fatal(err)
	}
	u := mustURL(t, "https://mcp.example/api/mcp?session=1#frag")
	proof, err := dpopProof(key, http.MethodPost, u, "tok", "n", time.Unix(1000, 0))
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeAS{}
	_, c, err := f.verifyDPoP(proof, http.MethodPost, "https://mcp.example/api/mcp", "tok")
	if err != nil {
		t.Fatalf("proof refused: %v", err)
	}
	if c.Nonce != "n" || *c.IAT != 1000 {
		t.Errorf("claims %+v: want nonce n and iat 1000", c)
	}
	if _, _, err := f.verifyDPoP(proof, http.MethodPost, "https://mcp.example/api/mcp", "tok"); err == nil {
		t.Error("the fake accepted a replayed proof; the checks above prove nothing")
	}
}

func TestWWWAuthenticateDPoPChallenge(t *testing.T) {
	h := http.Header{"Www-Authenticate": {`DPoP resource_metadata="https://rs/.well-known/oauth-protected-resource", algs="ES256"`}}
	c, ok := parseWWWAuthenticate(h)
	if !ok || c.ResourceMetadata != "https://rs/.well-known/oauth-protected-resource" {
		t.Errorf("got %+v, %v; want the DPoP challenge's resource_metadata", c, ok)
	}
}
