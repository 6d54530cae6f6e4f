package mcpcmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/sandbox"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clinames"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
)

// serverView is one server as `mcp list --json` and `mcp get --json` print it:
// the definition as written (not expanded) with its secrets masked by
// model.Redact, and everything that decides whether it may run. The
// connecting `mcp list` of the engine embeds it and adds the live state.
type serverView struct {
	Name      string          `json:"name"`
	Scope     model.Scope     `json:"scope"`
	Source    string          `json:"source"`
	Overrides []model.Origin  `json:"overrides,omitempty"`
	Transport model.Transport `json:"transport"`
	Command   string          `json:"command,omitempty"`
	Args      []string        `json:"args,omitempty"`
	Cwd       string          `json:"cwd,omitempty"`
	// RunsIn is the directory a stdio server starts in (model.Server.RunsIn);
	// HomeRelative its relative paths that now name something under home.
	RunsIn        string             `json:"runsIn,omitempty"`
	HomeRelative  []string           `json:"homeRelative,omitempty"`
	URL           string             `json:"url,omitempty"`
	Env           map[string]string  `json:"env,omitempty"`
	Headers       map[string]string  `json:"headers,omitempty"`
	HeadersHelper string             `json:"headersHelper,omitempty"`
	OAuth         *model.OAuthConfig `json:"oauth,omitempty"`
	Builtin       string             `json:"builtin,omitempty"`
	// Sandbox is the sandbox the definition asks for, as written (true
	// for the default profile).
	Sandbox  *model.Sandbox       `json:"sandbox,omitempty"`
	Hash     string               `json:"hash"`
	Enabled  bool                 `json:"enabled"`
	Approval model.Approval       `json:"approval"`
	Policy   model.PolicyDecision `json:"policy"`
	Runnable bool                 `json:"runnable"`
	Problems []model.Problem      `json:"problems,omitempty"`
	// UnknownFields are the fields of the definition mcpdeck does not use
	// (config.UnknownFields), by path: "agrs", "oauth.clientID".
	UnknownFields []string `json:"unknownFields,omitempty"`
	// ProtocolVersion is pinned by the definition (ProtocolPinned) or was
	// negotiated on the last connect; "" when not known yet.
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	ProtocolPinned  bool   `json:"protocolPinned,omitempty"`
	// StoreSecrets names the secrets the definition takes from mcpdeck's
	// secret store (${secret:NAME}); their values are never shown.
	StoreSecrets []string `json:"storeSecrets,omitempty"`
	// SandboxEnv names the environment variables a sandboxed server
	// receives (sandbox.EnvNames), values never shown; none without a
	// sandbox, where the server gets mcpdeck's environment less its own
	// credentials.
	SandboxEnv []string `json:"sandboxEnv,omitempty"`
}

// newServerView builds the view of s.
func newServerView(s model.Server) serverView {
	c := model.Redact(s.Raw)
	return serverView{
		Name: s.Name, Scope: s.Scope, Source: s.Source, Overrides: s.Overrides,
		Transport: c.EffectiveType(), Command: c.Command, Args: c.Args, Cwd: c.Cwd, URL: c.URL,
		RunsIn: clicore.ShownRunsIn(s), HomeRelative: s.HomeRelative,
		Env: c.Env, Headers: c.Headers, HeadersHelper: c.HeadersHelper,
		OAuth: c.OAuth, Builtin: c.Name, Sandbox: c.Sandbox, Hash: s.Hash, Enabled: s.Enabled,
		Approval: s.Approval, Policy: s.Policy, Runnable: s.Runnable(), Problems: s.Problems,
		StoreSecrets: config.SecretNames(s.Raw), UnknownFields: unknownFieldPaths(s.Raw),
		SandboxEnv: sandboxEnvNames(s),
	}
}

// sandboxEnvNames is sandbox.EnvNames for s, with this process's
// environment as the one mcpdeck gives its servers; nil without a sandbox.
func sandboxEnvNames(s model.Server) []string {
	if s.Config.Sandbox == nil {
		return nil
	}
	return sandbox.EnvNames(os.Environ(), s.Config.Env, s.Config.Sandbox.Network)
}

// unknownFieldPaths lists config.UnknownFields of raw by path.
func unknownFieldPaths(raw model.ServerConfig) []string {
	var out []string
	for _, u := range config.UnknownFields(raw) {
		out = append(out, u.Field)
	}
	return out
}

// writeApprovalView prints config.ApprovalView of s, the definition as
// written with nothing masked, one labelled line each after indent: what
// the person approves. `mcp get` and `mcp approve` print it.
func writeApprovalView(w io.Writer, s model.Server, indent string) {
	writeLabelled(w, config.ApprovalView(s.Raw, s.RunsIn(), s.Source), indent)
}

// writeLabelled prints labelled lines (values already escaped), the
// values in one column; an empty label continues the line above.
func writeLabelled(w io.Writer, lines []config.ApprovalLine, indent string) {
	col := 0
	for _, l := range lines {
		col = max(col, len(l.Label)+1)
	}
	for _, l := range lines {
		label := l.Label
		if label != "" {
			label += ":"
		}
		fmt.Fprintf(w, "%s%-*s %s\n", indent, col, label, l.Value)
	}
}

// approvalText is the APPROVAL column: "-" when no approval is needed.
func approvalText(a model.Approval) string {
	if a.Status == model.ApprovalNotNeeded {
		return "-"
	}
	return a.Status.String()
}

// policyText is the POLICY column: allowed or blocked, with the rule that
// decided when managed policy has one.
func policyText(p model.PolicyDecision) string {
	switch {
	case p.Allowed && p.Rule != "":
		return "allowed (" + p.Rule + ")"
	case p.Allowed:
		return "allowed"
	case p.Rule != "":
		return "blocked (" + p.Rule + ")"
	}
	return "blocked"
}

// yesNo renders a boolean for people.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// errNoServer is the error for a name no configured server has. It says why
// when it can: managed-mcp.json in effect, a plugin server hidden as a
// duplicate of another, or the name a typo most likely meant.
func errNoServer(res *config.Resolved, name string) error {
	if res != nil && res.Enterprise {
		return fmt.Errorf("%w: no server named %s: %s in the managed directory is in effect, so only the servers it defines exist",
			model.ErrNotFound, textsafe.SanitizeLine(name), config.ManagedMCPFile)
	}
	if res != nil {
		for _, d := range res.Suppressed {
			if d.Name == name {
				return fmt.Errorf("%w: server %s from the %s scope (%s) is hidden: it runs the same %s as %s",
					model.ErrNotFound, textsafe.SanitizeLine(name), d.Origin.Scope, textsafe.SanitizeLine(d.Origin.Source), sameWhat(d.Signature), textsafe.SanitizeLine(d.By))
			}
		}
	}
	return fmt.Errorf("%w: %w", model.ErrNotFound, clisession.UnknownServer(textsafe.SanitizeLine(name), clinames.ServerNames(res)))
}

// sameWhat names what two deduplicated servers share, from the signature.
func sameWhat(signature string) string {
	if strings.HasPrefix(signature, "url:") {
		return "URL"
	}
	return "command"
}

// explainNotFound replaces the model's bare "no server named X" (from
// SetEnabled or SetApproval) with errNoServer's fuller sentence.
func explainNotFound(g *clicore.Globals, name string, err error) error {
	if !errors.Is(err, model.ErrNotFound) {
		return err
	}
	res, lerr := clicore.LoadResolved(g)
	if lerr != nil {
		return err
	}
	return errNoServer(res, name)
}
