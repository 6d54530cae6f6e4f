package model

// Scope is where a server definition came from. The numeric order is the merge
// priority: a higher scope overrides a lower one of the same name. Enterprise is
// special: when a managed config exists, every other scope is ignored.
type Scope int

const (
	ScopeConnector Scope = iota + 1
	ScopePlugin
	ScopeUser
	ScopeProject
	ScopeLocal
	ScopeDynamic
	ScopeEnterprise
)

// scopeNames holds each scope's name, indexed by its Scope value.
var scopeNames = [...]string{"", "connector", "plugin", "user", "project", "local", "dynamic", "enterprise"}

// String returns the lower-case name used in files, flags and on screen.
func (s Scope) String() string {
	if s < ScopeConnector || s > ScopeEnterprise {
		return "unknown"
	}
	return scopeNames[s]
}

// ParseScope accepts the names String returns.
func ParseScope(name string) (Scope, bool) {
	for i, n := range scopeNames {
		if i > 0 && n == name {
			return Scope(i), true
		}
	}
	return 0, false
}

// MayUseSecrets reports whether definitions of scope may refer to secrets
// in mcpdeck's store: only the person's own files (user settings and the
// private state of a project) may. A repository's .mcp.json, a plugin, a
// --mcp-config file (which may sit in a repository) and managed config may
// not: otherwise a file someone else wrote could pull a secret out of the
// keychain into a server it controls.
func (s Scope) MayUseSecrets() bool { return s == ScopeUser || s == ScopeLocal }

// MarshalText lets Scope appear by name in JSON.
func (s Scope) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// DefinedByProject reports whether servers of scope s belong to the
// working tree they run in: the project's .mcp.json, and the person's
// local servers of that project. They start in the project root. Every
// other server starts in the home directory unless its definition sets
// cwd, so files in a working tree (ProjectRedirects) cannot change what a
// server they did not define runs.
func (s Scope) DefinedByProject() bool { return s == ScopeProject || s == ScopeLocal }
