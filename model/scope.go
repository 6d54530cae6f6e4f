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
