package model

import (
	"errors"
)

// secretPrefix starts a reference to a secret in mcpdeck's store:
// ${secret:NAME} in any string field of a definition.
const secretPrefix = "secret:"

// ErrSecretUnread is what a LoadOptions.LookupSecret returns when the
// command reads no secrets (it only shows or edits definitions): the
// reference stays as written and is not a problem, and the store (a
// keychain read each, maybe a prompt) is never asked. The scope rule
// still holds: a reference where secrets may not be used is a problem.
var ErrSecretUnread = errors.New("secrets are not read by this command")

// SecretReference is how a definition refers to the secret NAME of its own
// server: "${secret:NAME}".
func SecretReference(name string) string { return "${" + secretPrefix + name + "}" }

// ValidSecretName reports whether name can be a ${secret:NAME}: letters,
// digits and _, not starting with a digit.
func ValidSecretName(name string) bool { return validVarName(name) }

// MayUseSecrets reports whether definitions of scope may refer to secrets
// in mcpdeck's store: only the person's own files (user settings and the
// private state of a project) may. A repository's .mcp.json, a plugin, a
// --mcp-config file (which may sit in a repository) and managed config may
// not: otherwise a file someone else wrote could pull a secret out of the
// keychain into a server it controls.
func (s Scope) MayUseSecrets() bool { return s == ScopeUser || s == ScopeLocal }
