package policy

import (
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
)

// Permissions are the permissions.allow / permissions.deny rules of the user
// and local settings: exposed tool names (mcp__server__tool), a whole server
// (mcp__server or mcp__server__*). Deny always wins.
type Permissions struct {
	Allow []string `json:"allow,omitempty"`
	Deny  []string `json:"deny,omitempty"`
	// Unreadable names a settings file that exists but cannot be parsed: its
	// deny rules are unknown, so Check denies every tool (naming the file)
	// rather than let a rule the person wrote silently stop applying.
	Unreadable string `json:"unreadable,omitempty"`
}

// Check decides a tool call by its exposed name. It returns allowed=false with
// the deny rule that matched; allowed=true with the allow rule; or
// allowed=false with rule "" when no rule matches, meaning "ask the person".
// With Unreadable set it denies everything.
func (p Permissions) Check(exposedToolName string) (allowed bool, rule string) {
	if p.Unreadable != "" {
		return false, "deny: every tool while " + p.Unreadable + " cannot be read"
	}
	for _, r := range p.Deny {
		if ruleMatches(r, exposedToolName) {
			return false, "deny: " + r
		}
	}
	for _, r := range p.Allow {
		if ruleMatches(r, exposedToolName) {
			return true, "allow: " + r
		}
	}
	return false, ""
}

// ruleMatches matches one rule. Rules are normalized part by part so a rule
// written with the original server name ("mcp__my.server__*") still applies.
func ruleMatches(rule, name string) bool {
	rule = strings.TrimSpace(rule)
	if !strings.HasPrefix(rule, "mcp__") {
		return false
	}
	rest := rule[len("mcp__"):]
	server, tool, hasTool := strings.Cut(rest, "__")
	if server == "" {
		return false
	}
	prefix := model.ToolPrefix(server)
	if !hasTool || tool == "*" {
		return strings.HasPrefix(name, prefix) && len(name) > len(prefix)
	}
	return name == model.ToolName(server, tool)
}

// PermissionsKey holds the permission rules of managed, user and local
// settings (see Permissions).
const PermissionsKey = "permissions"

// ReadPermissions reads "permissions": {"allow": [...], "deny": [...]}.
func ReadPermissions(f *jsonfile.File, probs []model.Problem) (Permissions, []model.Problem) {
	var p Permissions
	n := f.Root.Get(PermissionsKey)
	if n == nil || n.Kind == 'z' {
		return p, probs
	}
	d := jsondoc.Decoder{Doc: f.Doc}
	if n.Kind != '{' {
		return p, append(probs, f.ProblemAt("", jsondoc.Want(n, PermissionsKey, "an object")))
	}
	for _, k := range []string{"allow", "deny"} {
		v := n.Get(k)
		if v == nil {
			continue
		}
		s, e := d.Strs(v, PermissionsKey+"."+k)
		if e != nil {
			probs = append(probs, f.ProblemAt("", e))
			continue
		}
		if k == "allow" {
			p.Allow = s
		} else {
			p.Deny = s
		}
	}
	return p, probs
}
