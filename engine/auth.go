package engine

import (
	"context"
	"net/http"

	"github.com/mcpdeck/mcpdeck/model"
)

// Authenticator is what the engine needs from OAuth (package oauth
// implements it; the engine must not import oauth). A nil Authenticator
// means plain HTTP: a 401 puts the server in needs-auth with nothing to run.
type Authenticator interface {
	// HTTPClient returns a client that adds and refreshes the server's
	// tokens (nil = http.DefaultClient behaviour).
	HTTPClient(srv model.Server) *http.Client
	// Headers runs the server's headersHelper and returns headers that
	// override the static ones. Only called for trusted scopes.
	Headers(ctx context.Context, srv model.Server) (map[string]string, error)
	// NeedsAuth reports a cached "this server needs auth" (15 min).
	NeedsAuth(srv model.Server) bool
	// MarkNeedsAuth records that the server answered 401.
	MarkNeedsAuth(srv model.Server)
	// Authenticate runs the interactive flow; showURL receives the
	// authorization URL to show or copy.
	Authenticate(ctx context.Context, srv model.Server, showURL func(string)) error
	// Warnings are shown once, e.g. tokens stored in a file.
	Warnings() []string
}

// ScopeReporter is implemented by an Authenticator that remembers which
// scopes a server refused requests for (403 insufficient_scope).
type ScopeReporter interface {
	MissingScopes(srv model.Server) []string
}

// cachedNeedsAuth asks the Authenticator which of the runnable servers in
// desired that one signs in to are known to need authentication (a cache
// file read per server), so that a reload can do it before taking e.mu.
func cachedNeedsAuth(auth Authenticator, desired []model.Server) map[string]bool {
	if auth == nil {
		return nil
	}
	out := map[string]bool{}
	for _, srv := range desired {
		if srv.Runnable() && srv.Config.EffectiveType().Info().OAuth && auth.NeedsAuth(srv) {
			out[srv.Name] = true
		}
	}
	return out
}

// trusted reports whether the server's definition may run helper scripts:
// not an unapproved project server.
func trusted(srv model.Server) bool {
	switch srv.Approval.Status {
	case model.ApprovalNotNeeded, model.ApprovalApproved:
		return true
	case model.ApprovalPending, model.ApprovalChanged, model.ApprovalRejected, model.ApprovalUnknown:
		return false
	}
	return false
}
