package oauth

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// wifEnv is a fake AS that accepts one workload JWT, and a server whose
// oauth section uses the jwt_bearer grant.
func wifEnv(t *testing.T) (*testEnv, model.Server, string) {
	e := newEnv(t, nil)
	jwt := "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9." + randomID()
	e.fake.PreClientID = "workload"
	e.fake.WorkloadJWT = jwt
	srv := e.server()
	srv.Config.OAuth = &model.OAuthConfig{ClientID: "workload", Grant: GrantJWTBearer}
	return e, srv, jwt
}

func TestWorkloadJWTFromFile(t *testing.T) {
	e, srv, jwt := wifEnv(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "token.jwt"), []byte(jwt+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv.Source = filepath.Join(dir, ".mcp.json")
	srv.Config.OAuth.AssertionFile = "token.jwt" // next to the config file
	if err := e.authenticate(srv); err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	if e.fake.TokenCalls[grantJWTBearer] != 1 || e.fake.TokenCalls["authorization_code"] != 0 || len(e.fake.Authorizes) != 0 {
		t.Errorf("token calls %v, authorizations %d: want one JWT bearer request and no browser", e.fake.TokenCalls, len(e.fake.Authorizes))
	}
	if code, err := e.get(srv, ""); err != nil || code != 200 {
		t.Errorf("request with the workload's token: %d, %v", code, err)
	}
	e.checkSecrecy()
}

func TestWorkloadJWTFromCommand(t *testing.T) {
	e, srv, jwt := wifEnv(t)
	srv.Config.OAuth.AssertionCommand = "echo " + jwt
	if err := e.authenticate(srv); err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	if e.fake.TokenCalls[grantJWTBearer] != 1 {
		t.Errorf("token calls %v", e.fake.TokenCalls)
	}
}

// TestWorkloadRefusalsAreClearAndNotRetried checks that invalid_grant,
// invalid_scope and unauthorized_client end the sign-in with a sentence
// saying what is wrong, after one token request and no other grant.
func TestWorkloadRefusalsAreClearAndNotRetried(t *testing.T) {
	for code, want := range map[string]string{
		"invalid_grant":       "refused the workload JWT",
		"invalid_scope":       "will not grant the requested scopes",
		"unauthorized_client": "may not use the JWT bearer grant",
	} {
		t.Run(code, func(t *testing.T) {
			e, srv, jwt := wifEnv(t)
			e.fake.WorkloadError = code
			srv.Config.OAuth.AssertionCommand = "echo " + jwt
			err := e.authenticate(srv)
			if !errors.Is(err, ErrAssertion) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), code) {
				t.Fatalf("got %v; want ErrAssertion saying %q", err, want)
			}
			if strings.Contains(err.Error(), jwt) {
				t.Error("the error quotes the assertion")
			}
			total := 0
			for _, n := range e.fake.TokenCalls {
				total += n
			}
			if total != 1 || len(e.fake.Authorizes) != 0 {
				t.Errorf("token calls %v, authorizations %d: want exactly one JWT bearer request", e.fake.TokenCalls, len(e.fake.Authorizes))
			}
		})
	}
}

func TestWorkloadAssertionConfigErrors(t *testing.T) {
	e, srv, _ := wifEnv(t)
	if err := e.authenticate(srv); !errors.Is(err, ErrConfig) {
		t.Errorf("no assertion source: %v, want ErrConfig", err)
	}
	srv.Config.OAuth.AssertionCommand = "echo not-a-jwt"
	srv.Hash = "h2"
	if err := e.authenticate(srv); !errors.Is(err, ErrAssertion) || strings.Contains(err.Error(), "not-a-jwt") {
		t.Errorf("bad output: %v", err)
	}
	srv.Scope, srv.Approval.Status = model.ScopeProject, model.ApprovalPending
	srv.Hash = "h3"
	if err := e.authenticate(srv); !errors.Is(err, ErrUntrusted) {
		t.Errorf("unapproved project server: %v, want ErrUntrusted (nothing run)", err)
	}
}
