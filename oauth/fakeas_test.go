package oauth

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
)

// fakeAS is an in-repo authorization server plus a protected MCP resource.
// It is strict where a real one is: PKCE, redirect URI, client auth,
// resource indicator; tokens are random and recorded so that the secrecy
// check can look for them in logs and errors.
type fakeAS struct {
	t  *testing.T
	as *httptest.Server // authorization server (and IdP under /idp)
	rs *httptest.Server // protected MCP resource at /mcp

	// knobs, set before use
	ScopesSupported []string // AS scopes_supported
	PRMScopes       []string // PRM scopes_supported
	ChallengeScope  string   // scope in the 401 challenge ("" = none)
	Grantable       []string // scopes the AS will grant; nil = any requested
	ExpiresIn       int64
	NoPRM           bool // 2025-03-26 server: no protected-resource metadata
	PRMResource     string
	PKCEMethods     *[]string
	CIMD            bool
	TamperState     bool
	PreClientID     string
	PreClientSecret string
	AuthMethods     []string
	ClientPublicKey *ecdsa.PublicKey // for private_key_jwt
	IDToken         string           // the IdP accepts this subject token
	RevocationOff   bool
	// MovedTo, when set, makes the resource trust only that authorization
	// server (its PRM names it; its tokens are the valid ones).
	MovedTo *fakeAS
	// Resource overrides the resource this AS issues tokens for.
	Resource string
	// Next serves authorized /mcp requests (an MCP server); nil = {"ok":true}.
	Next http.Handler
	// Iss is the RFC 9207 iss the callback carries: "" none, "good", or a value.
	Iss string
	// AdvertiseIss sets authorization_response_iss_parameter_supported.
	AdvertiseIss bool
	// MetadataIssuer overrides the issuer in the metadata document.
	MetadataIssuer string
	// PRMAtRoot serves the PRM only at the root well-known URL and leaves
	// resource_metadata out of the challenge.
	PRMAtRoot bool
	// Tenant, when set, puts the AS under /<tenant> with only OpenID
	// metadata at /<tenant>/.well-known/openid-configuration.
	Tenant string
	// RootMetadataHits counts requests for root metadata (a trap in tenant mode).
	RootMetadataHits int
	// RegisterMethod is the token_endpoint_auth_method dynamic registration
	// assigns ("" = none); with basic or post a client_secret comes along.
	RegisterMethod string
	// NoMetadata (with NoPRM) serves no metadata at all: the client must
	// fall back to /authorize, /token and /register on the server's origin.
	NoMetadata bool
	// NoPKCEField leaves code_challenge_methods_supported out of the metadata.
	NoPKCEField bool
	// MetadataPatch overrides fields of every metadata document served.
	MetadataPatch map[string]any
	// PRMAuthServer, when set, is the authorization server the PRM names.
	PRMAuthServer string
	// WorkloadJWT is the workload assertion the JWT bearer grant accepts;
	// WorkloadError, when set, is the error it answers instead.
	WorkloadJWT, WorkloadError string
	// OpenHandshake lets initialize and notifications through without a
	// token, as servers that guard only the requests after the handshake do.
	OpenHandshake bool
	// Probes counts unauthenticated /mcp requests by JSON-RPC method.
	Probes map[string]int
	// StatelessOnly makes the resource speak only protocol 2026-07-28: an
	// unauthenticated initialize, or a request without that version's
	// header, is answered 400 like such a server does.
	StatelessOnly bool
	// DPoP makes the AS advertise ES256 DPoP and bind every token to the
	// proof key; the resource then takes only DPoP-bound tokens with a
	// valid proof (fakedpop_test.go). DPoPNonce, when set, is the nonce
	// both demand.
	DPoP      bool
	DPoPNonce string
	// RotateNonce makes the resource demand a new nonce after each refusal.
	RotateNonce bool
	// DPoPErrors are the proofs refused; NonceRefusals counts
	// use_dpop_nonce answers by "as" and "rs".
	DPoPErrors    []string
	NonceRefusals map[string]int
	// LastAuth and LastProof are the Authorization and DPoP headers of
	// the last /mcp request.
	LastAuth, LastProof string
	jtis                map[string]bool
	issueJKT            string // the key the token being issued is bound to

	mu            sync.Mutex
	clients       map[string]fakeClient
	codes         map[string]fakeCode
	access        map[string]fakeGrant
	refresh       map[string]fakeGrant
	issued        []string
	Registrations int
	// LastRegistration is the last dynamic registration request.
	LastRegistration registration
	Authorizes       []url.Values
	TokenCalls       map[string]int // by grant_type
	Revoked          []string
	jags             map[string]string // ID-JAG → resource
}

type fakeClient struct {
	secret   string
	method   string
	redirect string
}

type fakeCode struct {
	clientID, redirect, challenge, resource string
	scopes                                  []string
}

type fakeGrant struct {
	clientID string
	scopes   []string
	resource string
	dead     bool
	jkt      string // DPoP key thumbprint the token is bound to
}

func newFakeAS(t *testing.T) *fakeAS {
	f := &fakeAS{
		t: t, ExpiresIn: 3600, ChallengeScope: "mcp:read",
		clients: map[string]fakeClient{}, codes: map[string]fakeCode{},
		access: map[string]fakeGrant{}, refresh: map[string]fakeGrant{},
		TokenCalls: map[string]int{}, jags: map[string]string{}, NonceRefusals: map[string]int{},
	}
	f.as = httptest.NewServer(http.HandlerFunc(f.serveAS))
	f.rs = httptest.NewServer(http.HandlerFunc(f.serveRS))
	t.Cleanup(func() {
		f.as.CloseClientConnections()
		f.rs.CloseClientConnections()
		f.as.Close()
		f.rs.Close()
	})
	return f
}

func (f *fakeAS) mcpURL() string {
	if f.Resource != "" {
		return f.Resource
	}
	return f.rs.URL + "/mcp"
}

// issuer is the AS's issuer identifier.
func (f *fakeAS) issuer() string {
	if f.Tenant != "" {
		return f.as.URL + "/" + f.Tenant
	}
	return f.as.URL
}

// moveTo switches the resource to another authorization server.
func (f *fakeAS) moveTo(other *fakeAS) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.MovedTo = other
	other.mu.Lock()
	other.Resource = f.rs.URL + "/mcp"
	other.mu.Unlock()
}

func (f *fakeAS) newToken(prefix string) string {
	tok := prefix + "-" + randomID()
	f.issued = append(f.issued, tok)
	return tok
}

// Issued lists every secret the fake handed out (tokens, codes, secrets).
func (f *fakeAS) Issued() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.issued)
}

// KillAccessTokens makes every access token invalid (as after a server restart).
func (f *fakeAS) KillAccessTokens() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for k, g := range f.access {
		g.dead = true
		f.access[k] = g
	}
}

func (f *fakeAS) calls(grant string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.TokenCalls[grant]
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func oauthErr(w http.ResponseWriter, status int, code string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": "fake AS says " + code})
}

func (f *fakeAS) metadata() map[string]any {
	md := map[string]any{
		"issuer":                   f.as.URL,
		"authorization_endpoint":   f.as.URL + "/authorize",
		"token_endpoint":           f.as.URL + "/token",
		"registration_endpoint":    f.as.URL + "/register",
		"response_types_supported": []string{"code"},
	}
	if !f.RevocationOff {
		md["revocation_endpoint"] = f.as.URL + "/revoke"
	}
	if f.ScopesSupported != nil {
		md["scopes_supported"] = f.ScopesSupported
	}
	switch {
	case f.NoPKCEField:
	case f.PKCEMethods != nil:
		md["code_challenge_methods_supported"] = *f.PKCEMethods
	default:
		md["code_challenge_methods_supported"] = []string{"S256"}
	}
	if f.CIMD {
		md["client_id_metadata_document_supported"] = true
	}
	if f.AdvertiseIss {
		md["authorization_response_iss_parameter_supported"] = true
	}
	if f.MetadataIssuer != "" {
		md["issuer"] = f.MetadataIssuer
	}
	if f.AuthMethods != nil {
		md["token_endpoint_auth_methods_supported"] = f.AuthMethods
	}
	if f.DPoP {
		md["dpop_signing_alg_values_supported"] = []string{"ES256"}
	}
	maps.Copy(md, f.MetadataPatch)
	return md
}

func (f *fakeAS) serveAS(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.Tenant != "" {
		if r.URL.Path == "/"+f.Tenant+"/.well-known/openid-configuration" {
			md := f.metadata()
			md["issuer"] = f.issuer()
			writeJSON(w, 200, md)
			return
		}
		if r.URL.Path == "/.well-known/oauth-authorization-server" || r.URL.Path == "/.well-known/openid-configuration" {
			f.RootMetadataHits++
			http.NotFound(w, r)
			return
		}
	}
	switch r.URL.Path {
	case "/.well-known/oauth-authorization-server":
		writeJSON(w, 200, f.metadata())
	case "/register":
		f.register(w, r)
	case "/authorize":
		f.authorize(w, r)
	case "/token":
		f.token(w, r)
	case "/revoke":
		_ = r.ParseForm()
		f.Revoked = append(f.Revoked, r.PostForm.Get("token"))
		delete(f.access, r.PostForm.Get("token"))
		delete(f.refresh, r.PostForm.Get("token"))
		w.WriteHeader(200)
	case "/idp/token":
		f.idpToken(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeAS) register(w http.ResponseWriter, r *http.Request) {
	var req registration
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.RedirectURIs) != 1 {
		oauthErr(w, 400, "invalid_client_metadata")
		return
	}
	f.Registrations++
	f.LastRegistration = req
	id := "dcr-" + randomID()
	c := fakeClient{method: authNone, redirect: req.RedirectURIs[0]}
	resp := map[string]any{"client_id": id, "token_endpoint_auth_method": "none", "redirect_uris": req.RedirectURIs}
	if f.RegisterMethod != "" {
		c.method, c.secret = f.RegisterMethod, f.newToken("secret")
		resp["token_endpoint_auth_method"], resp["client_secret"] = c.method, c.secret
	}
	f.clients[id] = c
	writeJSON(w, 201, resp)
}

func (f *fakeAS) client(id string) (fakeClient, bool) {
	if id == f.PreClientID && id != "" {
		m := authNone
		if f.PreClientSecret != "" {
			m = "secret"
		}
		return fakeClient{secret: f.PreClientSecret, method: m}, true
	}
	if f.CIMD && strings.HasPrefix(id, "https://") {
		return fakeClient{method: authNone}, true
	}
	c, ok := f.clients[id]
	return c, ok
}

func (f *fakeAS) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f.Authorizes = append(f.Authorizes, q)
	c, ok := f.client(q.Get("client_id"))
	redirect := q.Get("redirect_uri")
	switch {
	case !ok:
		http.Error(w, "unknown client", 400)
		return
	case c.redirect != "" && c.redirect != redirect:
		http.Error(w, "redirect_uri mismatch", 400)
		return
	case !strings.HasPrefix(redirect, "http://127.0.0.1:"):
		http.Error(w, "redirect_uri must be loopback", 400)
		return
	case q.Get("response_type") != "code", q.Get("code_challenge_method") != "S256", q.Get("code_challenge") == "",
		q.Get("state") == "", q.Get("resource") != f.mcpURL():
		http.Error(w, "bad authorization request", 400)
		return
	}
	scopes := strings.Fields(q.Get("scope"))
	if f.Grantable != nil {
		scopes = slices.DeleteFunc(scopes, func(s string) bool { return !slices.Contains(f.Grantable, s) })
	}
	code := f.newToken("code")
	f.codes[code] = fakeCode{clientID: q.Get("client_id"), redirect: redirect, challenge: q.Get("code_challenge"), resource: q.Get("resource"), scopes: scopes}
	state := q.Get("state")
	if f.TamperState {
		state = "tampered"
	}
	back := url.Values{"code": {code}, "state": {state}}
	switch f.Iss {
	case "":
	case "good":
		back.Set("iss", f.issuer())
	default:
		back.Set("iss", f.Iss)
	}
	http.Redirect(w, r, redirect+"?"+back.Encode(), http.StatusFound)
}

// clientAuthOK checks client authentication of a token request.
func (f *fakeAS) clientAuthOK(r *http.Request) (string, bool) {
	if id, secret, ok := r.BasicAuth(); ok {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
		c, known := f.client(id)
		return id, known && c.secret != "" && c.secret == secret && c.method != authPost
	}
	id := r.PostForm.Get("client_id")
	if r.PostForm.Get("client_assertion_type") != "" {
		return id, f.verifyAssertion(r.PostForm.Get("client_assertion"), id)
	}
	c, known := f.client(id)
	if !known {
		return id, false
	}
	if c.secret != "" {
		return id, r.PostForm.Get("client_secret") == c.secret && c.method != authBasic
	}
	return id, true
}

func (f *fakeAS) verifyAssertion(jwt, clientID string) bool {
	if f.ClientPublicKey == nil {
		return false
	}
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		return false
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return false
	}
	h := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(f.ClientPublicKey, h[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return false
	}
	cb, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var claims map[string]any
	_ = json.Unmarshal(cb, &claims)
	return claims["iss"] == clientID && claims["sub"] == clientID && claims["aud"] == f.issuer()
}

func (f *fakeAS) issue(w http.ResponseWriter, clientID string, scopes []string, resource string, withRefresh bool) {
	at := f.newToken("at")
	f.access[at] = fakeGrant{clientID: clientID, scopes: scopes, resource: resource, jkt: f.issueJKT}
	resp := map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": f.ExpiresIn, "scope": strings.Join(scopes, " ")}
	if f.issueJKT != "" {
		resp["token_type"] = "DPoP"
	}
	if withRefresh {
		rt := f.newToken("rt")
		f.refresh[rt] = fakeGrant{clientID: clientID, scopes: scopes, resource: resource, jkt: f.issueJKT}
		resp["refresh_token"] = rt
	}
	writeJSON(w, 200, resp)
}

func (f *fakeAS) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthErr(w, 400, "invalid_request")
		return
	}
	form := r.PostForm
	grant := form.Get("grant_type")
	f.TokenCalls[grant]++
	clientID, authOK := f.clientAuthOK(r)
	if !authOK {
		oauthErr(w, 401, "invalid_client")
		return
	}
	if f.DPoP {
		jkt, ok := f.tokenDPoP(w, r)
		if !ok {
			return
		}
		f.issueJKT = jkt
		defer func() { f.issueJKT = "" }()
	}
	switch grant {
	case "authorization_code":
		c, ok := f.codes[form.Get("code")]
		delete(f.codes, form.Get("code"))
		sum := sha256.Sum256([]byte(form.Get("code_verifier")))
		if !ok || c.clientID != clientID || c.redirect != form.Get("redirect_uri") ||
			base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge || form.Get("resource") != c.resource {
			oauthErr(w, 400, "invalid_grant")
			return
		}
		f.issue(w, clientID, c.scopes, c.resource, true)
	case "refresh_token":
		g, ok := f.refresh[form.Get("refresh_token")]
		if !ok || g.clientID != clientID || g.jkt != f.issueJKT {
			oauthErr(w, 400, "invalid_grant")
			return
		}
		delete(f.refresh, form.Get("refresh_token")) // rotation
		f.issue(w, clientID, g.scopes, g.resource, true)
	case "client_credentials":
		f.issue(w, clientID, strings.Fields(form.Get("scope")), form.Get("resource"), false)
	case grantJWTBearer:
		if f.WorkloadJWT != "" {
			if f.WorkloadError != "" {
				oauthErr(w, 400, f.WorkloadError)
				return
			}
			if form.Get("assertion") != f.WorkloadJWT {
				oauthErr(w, 400, "invalid_grant")
				return
			}
			f.issue(w, clientID, strings.Fields(form.Get("scope")), form.Get("resource"), false)
			return
		}
		res, ok := f.jags[form.Get("assertion")]
		if !ok || res != f.mcpURL() {
			oauthErr(w, 400, "invalid_grant")
			return
		}
		f.issue(w, clientID, strings.Fields(form.Get("scope")), res, false)
	default:
		oauthErr(w, 400, "unsupported_grant_type")
	}
}

func (f *fakeAS) idpToken(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	form := r.PostForm
	f.TokenCalls["idp:"+form.Get("grant_type")]++
	if form.Get("grant_type") != grantTokenExchange || form.Get("requested_token_type") != tokenTypeIDJAG ||
		form.Get("subject_token_type") != tokenTypeIDToken || form.Get("subject_token") != f.IDToken ||
		form.Get("audience") != f.issuer() || form.Get("resource") == "" {
		oauthErr(w, 400, "invalid_request")
		return
	}
	jag := f.newToken("jag")
	f.jags[jag] = form.Get("resource")
	writeJSON(w, 200, map[string]any{"access_token": jag, "issued_token_type": tokenTypeIDJAG, "token_type": "N_A"})
}

// serveRS is the MCP resource: PRM documents and /mcp, which needs
// mcp:read, or whatever X-Need-Scope names (step-up tests).
func (f *fakeAS) serveRS(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	legacy := f.NoMetadata
	f.mu.Unlock()
	if legacy && slices.Contains([]string{"/authorize", "/token", "/register"}, r.URL.Path) {
		f.serveAS(w, r)
		return
	}
	if f.rsLocked(w, r) {
		f.mu.Lock()
		next := f.Next
		f.mu.Unlock()
		if next != nil {
			next.ServeHTTP(w, r)
			return
		}
		writeJSON(w, 200, map[string]any{"ok": true})
	}
}

// rsLocked answers metadata and refusals; true means the request carries a
// good token and should be served.
func (f *fakeAS) rsLocked(w http.ResponseWriter, r *http.Request) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	prm := func() {
		if f.NoPRM {
			http.NotFound(w, r)
			return
		}
		res := f.mcpURL()
		if f.PRMResource != "" {
			res = f.PRMResource
		}
		asURL := f.issuer()
		if f.MovedTo != nil {
			asURL = f.MovedTo.as.URL
		}
		if f.PRMAuthServer != "" {
			asURL = f.PRMAuthServer
		}
		doc := map[string]any{"resource": res, "authorization_servers": []string{asURL}}
		if f.PRMScopes != nil {
			doc["scopes_supported"] = f.PRMScopes
		}
		writeJSON(w, 200, doc)
	}
	switch r.URL.Path {
	case "/.well-known/oauth-protected-resource/mcp":
		if f.PRMAtRoot {
			http.NotFound(w, r)
			return false
		}
		prm()
		return false
	case "/.well-known/oauth-protected-resource":
		if !f.PRMAtRoot {
			http.NotFound(w, r)
			return false
		}
		prm()
		return false
	case "/.well-known/oauth-authorization-server":
		if f.NoPRM && !f.NoMetadata { // 2025-03-26: the MCP server's origin is the AS
			md := f.metadata()
			md["issuer"] = f.rs.URL + "/oauth" // a path issuer, as the conformance suite has
			maps.Copy(md, f.MetadataPatch)
			writeJSON(w, 200, md)
			return false
		}
		http.NotFound(w, r)
		return false
	case "/mcp":
	default:
		http.NotFound(w, r)
		return false
	}
	if f.StatelessOnly && r.Method == http.MethodPost && r.Header.Get("Authorization") == "" {
		method := f.countProbe(r)
		if method == "initialize" || r.Header.Get("MCP-Protocol-Version") != "2026-07-28" || r.Header.Get("Mcp-Method") != method {
			http.Error(w, "Missing MCP-Protocol-Version header", http.StatusBadRequest)
			return false
		}
	}
	if f.OpenHandshake && r.Method == http.MethodPost && r.Header.Get("Authorization") == "" {
		method := f.countProbe(r)
		if method == "initialize" {
			w.Header().Set("Mcp-Session-Id", "probe-session")
		}
		if method == "initialize" || strings.HasPrefix(method, "notifications/") {
			return true
		}
	}
	need := []string{"mcp:read"}
	if n := r.Header.Get("X-Need-Scope"); n != "" {
		need = strings.Fields(n)
	}
	scheme := "Bearer"
	if f.DPoP {
		scheme = "DPoP"
	}
	f.LastAuth, f.LastProof = r.Header.Get("Authorization"), r.Header.Get("DPoP")
	challenge := func(status int, errCode string, scope string) {
		v := fmt.Sprintf(`%s resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, scheme, f.rs.URL)
		if f.PRMAtRoot {
			v = `Bearer realm="mcp"`
		}
		if errCode != "" {
			v += fmt.Sprintf(`, error="%s"`, errCode)
		}
		if scope != "" {
			v += fmt.Sprintf(`, scope="%s"`, scope)
		}
		w.Header().Set("WWW-Authenticate", v)
		w.WriteHeader(status)
	}
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), scheme+" ")
	g, known := f.access[tok]
	if f.MovedTo != nil {
		f.MovedTo.mu.Lock()
		g, known = f.MovedTo.access[tok]
		f.MovedTo.mu.Unlock()
	}
	if !ok || !known || g.dead {
		challenge(401, "invalid_token", f.ChallengeScope)
		return false
	}
	if f.DPoP && !f.resourceDPoP(w, r, tok, g) {
		return false
	}
	for _, s := range need {
		if !slices.Contains(g.scopes, s) {
			challenge(403, "insufficient_scope", strings.Join(need, " "))
			return false
		}
	}
	return true
}

// countProbe counts an unauthenticated request in Probes by its JSON-RPC
// method and returns the method; the body stays readable.
func (f *fakeAS) countProbe(r *http.Request) string {
	b, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(b))
	var msg struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal(b, &msg)
	if f.Probes == nil {
		f.Probes = map[string]int{}
	}
	f.Probes[msg.Method]++
	return msg.Method
}
