package oauth

import "github.com/mcpdeck/mcpdeck/model"

// What a server's definition says about its sign-in, and whether mcpdeck
// may act on it at all.

// Grant names of model.OAuthConfig.Grant.
const (
	GrantAuthorizationCode = ""
	GrantClientCredentials = "client_credentials"
	GrantCrossApp          = "xaa"
	// GrantEnterpriseManaged is the current name of cross-app access
	// (enterprise-managed authorization); both names select the same grant.
	GrantEnterpriseManaged = "enterprise_managed"
)

// oauthConfig is the server's oauth section (the zero one when it has
// none), the grant's other name spelled the one way.
func oauthConfig(srv model.Server) model.OAuthConfig {
	if srv.Config.OAuth == nil {
		return model.OAuthConfig{}
	}
	oc := *srv.Config.OAuth
	if oc.Grant == GrantEnterpriseManaged {
		oc.Grant = GrantCrossApp
	}
	return oc
}

// isMachine reports a grant without a person: no browser, and a "refresh"
// repeats the grant.
func isMachine(srv model.Server) bool {
	g := oauthConfig(srv).Grant
	return g == GrantClientCredentials || g == GrantCrossApp || g == GrantJWTBearer
}

// untrusted reports a definition the person has not approved: a project
// server not (or no longer) approved. Nothing of it may run or be contacted.
func untrusted(srv model.Server) bool {
	switch srv.Approval.Status {
	case model.ApprovalPending, model.ApprovalChanged, model.ApprovalRejected:
		return true
	case model.ApprovalNotNeeded, model.ApprovalApproved:
	}
	return srv.Scope == model.ScopeProject && srv.Approval.Status != model.ApprovalApproved
}
