package oauth

import (
	"net/http"
	"strings"
	"testing"
)

// TestProbeFindsChallengeBehindOpenHandshake checks that Authenticate asks
// for the scope of the server's challenge when the server lets initialize
// through and guards only the requests after it, instead of falling back to
// the resource's scopes_supported.
func TestProbeFindsChallengeBehindOpenHandshake(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.OpenHandshake = true
	e.fake.ChallengeScope = "mcp:basic"
	e.fake.PRMScopes = []string{"mcp:profile"}
	srv := e.server()
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	if got := e.fake.Authorizes[0].Get("scope"); got != "mcp:basic" {
		t.Errorf("first authorization asked for %q, want the challenged mcp:basic", got)
	}
	if e.fake.Probes["tools/list"] != 1 {
		t.Errorf("probe requests %v: want one tools/list after the open handshake", e.fake.Probes)
	}
}

// TestProbeAsksStatelessServerTheStatelessWay: a server of protocol
// 2026-07-28 refuses the handshake with 400; the probe then asks for
// tools/list the stateless way and signs in with the scope it challenges.
func TestProbeAsksStatelessServerTheStatelessWay(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.StatelessOnly = true
	e.fake.ChallengeScope = "mcp:basic"
	e.fake.PRMScopes = []string{"mcp:profile"}
	srv := e.server()
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	if got := e.fake.Authorizes[0].Get("scope"); got != "mcp:basic" {
		t.Errorf("first authorization asked for %q, want the challenged mcp:basic", got)
	}
	if e.fake.Probes["initialize"] != 1 || e.fake.Probes["tools/list"] != 1 {
		t.Errorf("probe requests %v: want the refused initialize, then one stateless tools/list", e.fake.Probes)
	}
}

// TestStepUpAfterOpenHandshakeAsksUnion is the scope-step-up story: the
// first requests pass with the basic scope, a later one is refused with 403
// insufficient_scope, and the step-up asks for the union.
func TestStepUpAfterOpenHandshakeAsksUnion(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.InlineAuth = true })
	e.fake.OpenHandshake = true
	e.fake.ChallengeScope = "mcp:basic"
	srv := e.server()
	if code, err := e.get(srv, "mcp:basic"); err != nil || code != 200 {
		t.Fatalf("first request: %d, %v", code, err)
	}
	if code, err := e.get(srv, "mcp:basic mcp:write"); err != nil || code != 200 {
		t.Fatalf("step-up: %d, %v", code, err)
	}
	if got := e.fake.Authorizes[1].Get("scope"); got != "mcp:basic mcp:write" {
		t.Errorf("step-up asked for %q, want the union", got)
	}
	if s := e.m.MissingScopes(srv); s != nil {
		t.Errorf("MissingScopes after a granted step-up = %v", s)
	}
}

// TestMissingScopesAfterRefusedStepUp checks that a 403 insufficient_scope
// the step-up could not cure leaves the scope the sign-in lacks, for the
// caller's error, and that a new sign-in clears it.
func TestMissingScopesAfterRefusedStepUp(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.InlineAuth = true })
	e.fake.Grantable = []string{"mcp:read"} // never grants mcp:admin
	srv := e.server()
	if code, _ := e.get(srv, "mcp:read mcp:admin"); code != http.StatusForbidden {
		t.Fatalf("got %d, want 403", code)
	}
	if got := strings.Join(e.m.MissingScopes(srv), " "); got != "mcp:admin" {
		t.Errorf("MissingScopes = %q, want mcp:admin", got)
	}
	e.fake.Grantable = nil
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	if s := e.m.MissingScopes(srv); s != nil {
		t.Errorf("MissingScopes after a new sign-in = %v", s)
	}
}
