package model

import (
	"errors"
	"sort"
	"strconv"
	"strings"
)

// Expand replaces ${VAR} and ${VAR:-default} in s. VAR must look like a
// shell variable name ([A-Za-z_][A-Za-z0-9_]*); anything else — a lone '$',
// "$$", $VAR without braces, an unclosed "${" — is left as written. "$$" is
// consumed as a pair, so "$${VAR}" stays literally "$${VAR}". As in the shell,
// ":-" uses the default when VAR is unset or empty. Missing lists, in order,
// each "${VAR}" reference that is unset and has no default.
// A ${secret:NAME} reference is left as written: only a definition's own
// expansion (ServerConfig.Expand) may resolve it, from the secret store.
func Expand(s string, lookup func(string) (string, bool)) (out string, missing []string) {
	out, missing, _ = expand(s, lookup, nil)
	return out, missing
}

// expand is Expand that also resolves ${secret:NAME} through secret (nil:
// left as written). A resolved value is inserted as it is, never expanded
// again. secretErrs lists, in order, the references secret refused.
func expand(s string, lookup func(string) (string, bool), secret func(name string) (string, error)) (out string, missing []string, secretErrs []error) {
	if !strings.Contains(s, "${") {
		return s, nil, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '$' {
			b.WriteByte(c)
			i++
			continue
		}
		if i+1 < len(s) && s[i+1] == '$' {
			b.WriteString("$$")
			i += 2
			continue
		}
		if i+1 >= len(s) || s[i+1] != '{' {
			b.WriteByte('$')
			i++
			continue
		}
		end := strings.IndexByte(s[i+2:], '}')
		if end < 0 {
			b.WriteString(s[i:])
			break
		}
		body := s[i+2 : i+2+end]
		if ref, ok := strings.CutPrefix(body, secretPrefix); ok && secret != nil {
			v, err := secret(ref)
			switch {
			case errors.Is(err, ErrSecretUnread):
				v = s[i : i+2+end+1] // left as written
			case err != nil:
				secretErrs = append(secretErrs, err)
			}
			b.WriteString(v)
			i += 2 + end + 1
			continue
		}
		name, def, hasDef := strings.Cut(body, ":-")
		if !validVarName(name) {
			b.WriteString("${")
			i += 2
			continue
		}
		v, ok := lookup(name)
		switch {
		case ok && (v != "" || !hasDef):
			b.WriteString(v)
		case hasDef:
			b.WriteString(def)
		default:
			missing = append(missing, "${"+name+"}")
		}
		i += 2 + end + 1
	}
	return b.String(), missing, secretErrs
}

// validVarName reports whether name is a shell-style variable name.
func validVarName(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		ok := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9')
		if !ok {
			return false
		}
	}
	return true
}

// Expand expands every string field of the definition (Extra excluded: we
// do not know what it means); in cwd and the sandbox's paths,
// ${PROJECT_DIR} is root (cwdLookup).
// Each unset variable, and each ${secret:NAME} that secret refuses,
// becomes a Problem naming the field ("headers.Authorization") and the
// variable or secret; the caller adds server and file. A secret that
// answers ErrSecretUnread leaves its reference as written. put lists each
// value expansion inserted, from a variable harmlessVar does not pass or
// from the secret store. A credential of mcpdeck's own (OwnSecretVar)
// never expands: it is a Problem, so no definition, least of all a
// repository's, can hand it to a server.
func (cfg ServerConfig) Expand(lookup func(string) (string, bool), secret func(string) (string, error), root string) (_ ServerConfig, put []Expansion, _ []Problem) {
	var probs []Problem
	oneWith := func(lookup func(string) (string, bool), field, s string) string {
		look := func(name string) (string, bool) {
			if OwnSecretVar(name) {
				probs = append(probs, Problem{Field: field, Message: "${" + name + "} is a credential of mcpdeck's own, never given to a server"})
				return "", true
			}
			v, ok := lookup(name)
			if ok && v != "" && !harmlessVar(name) {
				put = append(put, Expansion{Field: field, Ref: "${" + name + "}", Value: v})
			}
			return v, ok
		}
		var sec func(string) (string, error)
		if secret != nil {
			sec = func(name string) (string, error) {
				v, err := secret(name)
				if err == nil && v != "" {
					put = append(put, Expansion{Field: field, Ref: SecretReference(name), Value: v})
				}
				return v, err
			}
		}
		v, missing, secretErrs := expand(s, look, sec)
		for _, m := range missing {
			probs = append(probs, Problem{Field: field, Message: m + " is not set"})
		}
		for _, err := range secretErrs {
			probs = append(probs, Problem{Field: field, Message: err.Error()})
		}
		return v
	}
	one := func(field, s string) string { return oneWith(lookup, field, s) }
	strMap := func(field string, m map[string]string) map[string]string {
		if m == nil {
			return nil
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys) // problems in a stable order
		out := make(map[string]string, len(m))
		for _, k := range keys {
			out[k] = one(field+"."+k, m[k])
		}
		return out
	}
	strs := func(field string, in []string) []string {
		if in == nil {
			return nil
		}
		out := make([]string, len(in))
		for i, s := range in {
			out[i] = one(field+"["+strconv.Itoa(i)+"]", s)
		}
		return out
	}
	out := cfg
	out.Command = one("command", cfg.Command)
	out.Args = strs("args", cfg.Args)
	out.Env = strMap("env", cfg.Env)
	out.Cwd = oneWith(cwdLookup(lookup, root), "cwd", cfg.Cwd)
	out.URL = one("url", cfg.URL)
	out.Headers = strMap("headers", cfg.Headers)
	out.HeadersHelper = one("headersHelper", cfg.HeadersHelper)
	out.Name = one("name", cfg.Name)
	out.ProtocolVersion = one("protocolVersion", cfg.ProtocolVersion)
	if cfg.Sandbox != nil {
		sb := *cfg.Sandbox
		inProject := func(field, s string) string { return oneWith(cwdLookup(lookup, root), field, s) }
		sb.Read, sb.ProjectRead = expandSandboxPaths("sandbox.read", sb.Read, inProject)
		sb.Write, sb.ProjectWrite = expandSandboxPaths("sandbox.write", sb.Write, inProject)
		sb.Sockets = strs("sandbox.sockets", sb.Sockets)
		out.Sandbox = &sb
	}
	if cfg.OAuth != nil {
		o := *cfg.OAuth
		o.ClientID = one("oauth.clientId", o.ClientID)
		o.AuthServerMetadataURL = one("oauth.authServerMetadataUrl", o.AuthServerMetadataURL)
		o.ClientMetadataURL = one("oauth.clientMetadataUrl", o.ClientMetadataURL)
		o.Grant = one("oauth.grant", o.Grant)
		o.AssertionFile = one("oauth.assertionFile", o.AssertionFile)
		o.AssertionCommand = one("oauth.assertionCommand", o.AssertionCommand)
		o.Scopes = strs("oauth.scopes", o.Scopes)
		out.OAuth = &o
	}
	return out, put, probs
}

// expandSandboxPaths expands a sandbox's path list (field names it) with
// expand, and marks the entries written with ${PROJECT_DIR} (nil when
// none is).
func expandSandboxPaths(field string, in []string, expand func(field, s string) string) ([]string, []bool) {
	if in == nil {
		return nil, nil
	}
	out := make([]string, len(in))
	var marks []bool
	for i, s := range in {
		out[i] = expand(field+"["+strconv.Itoa(i)+"]", s)
		if namesProjectDir(s) {
			if marks == nil {
				marks = make([]bool, len(in))
			}
			marks[i] = true
		}
	}
	return out, marks
}

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
