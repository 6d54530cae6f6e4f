package policy

import (
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Permissions are the permissions.allow / permissions.deny rules of the user
// and local settings: exposed tool names (mcp__server__tool), a whole server
// (mcp__server or mcp__server__*). Deny always wins.
type Permissions struct {
	Allow []string `json:"allow,omitempty"`
	Deny  []string `json:"deny,omitempty"`
	// Unreadable are the problems of the settings files that exist but
	// cannot be parsed: their deny rules are unknown, so Check denies every
	// tool (UnreadableText says why) rather than let a rule the person
	// wrote silently stop applying.
	Unreadable []model.Problem `json:"unreadable,omitempty"`
}

// Check decides a tool call by its exposed name. It returns allowed=false with
// the deny rule that matched; allowed=true with the allow rule; or
// allowed=false with rule "" when no rule matches, meaning "ask the person".
// With Unreadable set it denies everything, the rule being UnreadableText.
func (p Permissions) Check(exposedToolName string) (allowed bool, rule string) {
	if len(p.Unreadable) > 0 {
		return false, p.UnreadableText()
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

// UnreadableText is why every tool is denied, the cause first: each
// settings file that cannot be read, at its line and column, and what is
// wrong, then what mcpdeck does until it is fixed. "" when every file was
// read. It is the one sentence the TUI's detail, the CLI and serve give.
func (p Permissions) UnreadableText() string {
	if len(p.Unreadable) == 0 {
		return ""
	}
	parts := make([]string, 0, len(p.Unreadable))
	for _, u := range p.Unreadable {
		at := u.File
		if u.Line > 0 {
			at += fmt.Sprintf(":%d:%d", u.Line, u.Col)
		}
		parts = append(parts, at+": "+u.Cause())
	}
	it := "it is"
	if len(parts) > 1 {
		it = "they are"
	}
	return textsafe.SanitizeLine(strings.Join(parts, "; ") + " — the permission rules there cannot be read, so every tool is denied until " + it + " fixed")
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
