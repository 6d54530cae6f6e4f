package oauth

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// GrantJWTBearer is workload identity federation: the platform's JWT
// (oauth.assertionFile or oauth.assertionCommand) is exchanged for a token
// by the RFC 7523 JWT bearer grant, for CI and servers without a person.
const GrantJWTBearer = "jwt_bearer"

// maxAssertion bounds a workload JWT read from a file.
const maxAssertion = 64 << 10

// ErrAssertion means the workload JWT could not be read, or the
// authorization server refused it.
var ErrAssertion = errors.New("the workload identity assertion was not accepted")

// workloadAssertion reads the workload JWT afresh (platforms rotate it):
// oauth.assertionFile (relative to the config file that names it) or the
// output of oauth.assertionCommand. Neither runs or is read for a server
// the person has not approved.
func (mg *machineGrants) workloadAssertion(ctx context.Context, srv model.Server, oc model.OAuthConfig) (string, error) {
	if untrusted(srv) {
		return "", ErrUntrusted
	}
	switch {
	case oc.AssertionFile != "" && oc.AssertionCommand != "":
		return "", fmt.Errorf("%w: set oauth.assertionFile or oauth.assertionCommand, not both", ErrConfig)
	case oc.AssertionFile != "":
		p := oc.AssertionFile
		if d := srv.DefinitionDir(); d != "" && !filepath.IsAbs(p) {
			p = filepath.Join(d, p)
		}
		f, err := os.Open(p)
		if err != nil {
			return "", fmt.Errorf("%w: reading oauth.assertionFile: %w", ErrConfig, err)
		}
		defer f.Close()
		b := make([]byte, maxAssertion+1)
		n, _ := f.Read(b)
		if n > maxAssertion {
			return "", fmt.Errorf("%w: oauth.assertionFile %s is larger than %d KB", ErrConfig, p, maxAssertion>>10)
		}
		return checkAssertion(string(b[:n]), "oauth.assertionFile "+p)
	case oc.AssertionCommand != "":
		out, err := runShell(ctx, srv, oc.AssertionCommand, mg.helperTimeout)
		if err != nil {
			return "", fmt.Errorf("%w: oauth.assertionCommand: %w", ErrAssertion, err)
		}
		return checkAssertion(string(out), "the output of oauth.assertionCommand")
	}
	return "", fmt.Errorf("%w: oauth.grant %q needs oauth.assertionFile or oauth.assertionCommand", ErrConfig, GrantJWTBearer)
}

// checkAssertion accepts one compact JWT (three dot-separated parts).
func checkAssertion(s, where string) (string, error) {
	s = strings.TrimSpace(s)
	if strings.Count(s, ".") != 2 || strings.ContainsAny(s, " \t\r\n") {
		// Never quote it: it is a credential.
		return "", fmt.Errorf("%w: %s is not a JWT", ErrAssertion, where)
	}
	return s, nil
}

// refusedAssertion words the errors of the JWT bearer grant that no retry
// can fix: the person must change the workload's identity, its scopes or
// the authorization server's trust, not try another grant.
func refusedAssertion(err error) error {
	var oe *OAuthError
	if !errors.As(err, &oe) || !slices.Contains([]string{"invalid_grant", "invalid_scope", "unauthorized_client"}, oe.Code) {
		return err
	}
	why := map[string]string{
		"invalid_grant":       "the authorization server refused the workload JWT (expired, wrong audience or untrusted issuer)",
		"invalid_scope":       "the authorization server will not grant the requested scopes to this workload",
		"unauthorized_client": "this client may not use the JWT bearer grant at the authorization server",
	}[oe.Code]
	return &cleanError{msg: fmt.Sprintf("%s: %s", why, oe.Error()), err: errors.Join(ErrAssertion, err)}
}
