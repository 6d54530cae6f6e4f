package oauth

import (
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

func TestLegacyServerWithoutPRM(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.NoPRM = true
	if err := e.authenticate(e.server()); err != nil {
		t.Fatalf("2025-03-26 root-metadata fallback: %v", err)
	}
}

func TestScopesFromPRMWhenNoChallengeScope(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.ChallengeScope = ""
	e.fake.PRMScopes = []string{"mcp:read", "mcp:write"}
	if err := e.authenticate(e.server()); err != nil {
		t.Fatal(err)
	}
	if got := e.fake.Authorizes[0].Get("scope"); got != "mcp:read mcp:write" {
		t.Errorf("scope = %q", got)
	}
}

func TestNoScopeWhenNothingAdvertised(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.ChallengeScope = ""
	if err := e.authenticate(e.server()); err != nil {
		t.Fatal(err)
	}
	if e.fake.Authorizes[0].Has("scope") {
		t.Errorf("scope sent: %q", e.fake.Authorizes[0].Get("scope"))
	}
}

func TestOfflineAccessAddedWhenListed(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.ScopesSupported = []string{"mcp:read", "offline_access"}
	if err := e.authenticate(e.server()); err != nil {
		t.Fatal(err)
	}
	if got := e.fake.Authorizes[0].Get("scope"); got != "mcp:read offline_access" {
		t.Errorf("scope = %q", got)
	}
}

func TestCIMDUsedWhenSupported(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.CIMD = true
	srv := e.server()
	srv.Config.OAuth = &model.OAuthConfig{ClientMetadataURL: "https://client.example/metadata.json"}
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	if got := e.fake.Authorizes[0].Get("client_id"); got != "https://client.example/metadata.json" || e.fake.Registrations != 0 {
		t.Errorf("client_id %q, registrations %d", got, e.fake.Registrations)
	}
}

func TestPKCEWithoutS256Refused(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.PKCEMethods = &[]string{}
	if err := e.authenticate(e.server()); !errors.Is(err, ErrNoPKCE) {
		t.Fatalf("got %v", err)
	}
	if len(e.fake.Authorizes) != 0 {
		t.Error("authorization was requested anyway")
	}
}

// Metadata that does not say it supports S256 (the field left out, or
// only "plain") is refused before any registration or authorization.
func TestPKCEFieldMissingRefused(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(f *fakeAS)
	}{
		{"absent", func(f *fakeAS) { f.NoPKCEField = true }},
		{"plain only", func(f *fakeAS) { f.PKCEMethods = &[]string{"plain"} }},
		{"absent, 2025-03-26 root metadata", func(f *fakeAS) { f.NoPKCEField, f.NoPRM = true, true }},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, nil)
			c.setup(e.fake)
			err := e.authenticate(e.server())
			if !errors.Is(err, ErrNoPKCE) || !strings.Contains(err.Error(), "code_challenge_methods_supported") {
				t.Fatalf("got %v, want ErrNoPKCE naming the field", err)
			}
			if len(e.fake.Authorizes) != 0 || e.fake.Registrations != 0 || len(e.shown) != 0 {
				t.Error("the flow went on without PKCE S256")
			}
		})
	}
}

func TestResourceMismatchRefused(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.PRMResource = "https://other.example/mcp"
	if err := e.authenticate(e.server()); !errors.Is(err, ErrResourceMismatch) {
		t.Fatalf("got %v", err)
	}
}

func TestAuthServerMetadataURLOverride(t *testing.T) {
	e := newEnv(t, nil)
	srv := e.server()
	srv.Config.OAuth = &model.OAuthConfig{AuthServerMetadataURL: e.fake.as.URL + "/.well-known/oauth-authorization-server"}
	srv.Config.OAuth.Extra = map[string]json.RawMessage{}
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
}

func TestMetadataCandidates(t *testing.T) {
	got := asMetadataCandidates("https://auth.example.com/tenant1")
	want := []string{
		"https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
		"https://auth.example.com/.well-known/openid-configuration/tenant1",
		"https://auth.example.com/tenant1/.well-known/openid-configuration",
	}
	if !slices.Equal(got, want) {
		t.Errorf("tenant: %v", got)
	}
	if got := asMetadataCandidates("https://auth.example.com"); len(got) != 2 {
		t.Errorf("root: %v", got)
	}
	u, _ := url.Parse("https://mcp.example.com/public/mcp")
	prm := prmCandidates("", u)
	if !slices.Equal(prm, []string{
		"https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp",
		"https://mcp.example.com/.well-known/oauth-protected-resource",
	}) {
		t.Errorf("prm: %v", prm)
	}
}

func TestResourceMatches(t *testing.T) {
	u, _ := url.Parse("https://mcp.example.com/api/mcp")
	for res, want := range map[string]bool{
		"https://mcp.example.com/api/mcp":  true,
		"https://mcp.example.com/":         true,
		"https://MCP.example.com/api":      true,
		"https://mcp.example.com/apix":     false,
		"https://evil.example.com/api/mcp": false,
		"http://mcp.example.com/api/mcp":   false,
	} {
		if got := resourceMatches(res, u); got != want {
			t.Errorf("%s: got %v", res, got)
		}
	}
}

func TestLegacyDefaultEndpoints(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.NoPRM, e.fake.NoMetadata = true, true
	if err := e.authenticate(e.server()); err != nil {
		t.Fatalf("2025-03-26 default endpoints: %v", err)
	}
	if e.fake.Registrations != 1 || e.fake.calls("authorization_code") != 1 {
		t.Errorf("registrations %d, code exchanges %d", e.fake.Registrations, e.fake.calls("authorization_code"))
	}
	if code, _ := e.get(e.server(), ""); code != 200 {
		t.Errorf("got %d", code)
	}
}

func TestIssuerIdentification(t *testing.T) {
	for _, tc := range []struct {
		name      string
		iss       string
		advertise bool
		ok        bool
	}{
		{"matching iss", "good", true, true},
		{"no iss, not promised", "", false, true},
		{"wrong iss", "https://evil.example.com", false, false},
		{"promised but missing", "", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			e.fake.Iss, e.fake.AdvertiseIss = tc.iss, tc.advertise
			err := e.authenticate(e.server())
			if tc.ok && err != nil {
				t.Fatalf("got %v", err)
			}
			if !tc.ok && !errors.Is(err, ErrIssuerMismatch) {
				t.Fatalf("got %v, want ErrIssuerMismatch", err)
			}
			if !tc.ok && e.fake.calls("authorization_code") != 0 {
				t.Error("the code was exchanged despite the issuer mismatch")
			}
		})
	}
}

func TestMetadataIssuerMismatchRefused(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.MetadataIssuer = "https://evil.example.com"
	if err := e.authenticate(e.server()); !errors.Is(err, ErrIssuerMismatch) {
		t.Fatalf("got %v", err)
	}
	if len(e.fake.Authorizes) != 0 {
		t.Error("authorization requested despite the mismatch")
	}
}

func TestTenantIssuerWithOpenIDMetadata(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.Tenant = "tenant1"
	if err := e.authenticate(e.server()); err != nil {
		t.Fatalf("tenant OpenID discovery: %v", err)
	}
	if e.fake.RootMetadataHits != 0 {
		t.Errorf("root metadata requested %d times for a path issuer", e.fake.RootMetadataHits)
	}
	if code, _ := e.get(e.server(), ""); code != 200 {
		t.Errorf("got %d", code)
	}
}

func TestRootPRMWithoutHint(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.PRMAtRoot = true
	e.fake.PRMScopes = []string{"mcp:read"}
	e.fake.ChallengeScope = ""
	if err := e.authenticate(e.server()); err != nil {
		t.Fatalf("root PRM fallback: %v", err)
	}
	if got := e.fake.Authorizes[0].Get("scope"); got != "mcp:read" {
		t.Errorf("scope %q: the root PRM was not used", got)
	}
}
