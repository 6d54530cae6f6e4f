package model

import (
	"encoding/base64"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Redact returns raw, a server definition as written (before ${VAR}
// expansion), with its secrets replaced by Masked, ready to be shown: the
// places secretSpots lists (env and header values, the URL's userinfo and
// secret-looking query parameters, and arguments that follow or carry a
// secret-looking flag), the places Server.Secrets takes its set from.
// Values made only of ${VAR} references (optionally after an auth scheme
// such as "Bearer ") hold no secret and are kept, so the person can see
// which variable feeds them. Unknown fields (Extra) are dropped. raw is not
// modified. Never pass an expanded config: its secrets are literal text and
// would all be masked, hiding which variable they came from.
func Redact(raw ServerConfig) ServerConfig {
	out := secretSpots(raw, func(_, v string) string { return textsafe.MaskWritten(v) })
	out.Extra = nil
	if raw.OAuth != nil {
		o := *raw.OAuth
		o.Scopes = append([]string(nil), raw.OAuth.Scopes...)
		o.Extra = nil
		out.OAuth = &o
	}
	return out
}

// RedactTarget is the one-line command line (textsafe.QuoteCommand, so
// that `sh -c 'a b'` keeps its quoting) or URL shown in lists for cfg,
// which must already have been through Redact.
func RedactTarget(cfg ServerConfig) string {
	switch t := cfg.EffectiveType().Info(); {
	case t.Program:
		if cfg.Command == "" {
			return "" // a definition without one: its problem says so
		}
		return textsafe.QuoteCommand(cfg.Command, cfg.Args)
	case t.Builtin:
		return "built-in " + cfg.Name
	}
	return cfg.URL
}

// harmlessVar reports whether the variable name holds no secret: where
// the person lives and what their shell and terminal are (HOME,
// USERPROFILE, PATH, USER, USERNAME, LOGNAME, SHELL, TMPDIR, TMP, TEMP,
// PWD, LANG, LANGUAGE, TERM, LC_* and XDG_*), and PROJECT_DIR, which in
// cwd is the project root mcpdeck names (cwdLookup). The values ${VAR} expansion
// takes from them are left out of a server's secret set, so that the home
// directory is not masked in every path mcpdeck prints.
func harmlessVar(name string) bool {
	switch name {
	case "HOME", "USERPROFILE", "PATH", "USER", "USERNAME", "LOGNAME", "SHELL",
		"TMPDIR", "TMP", "TEMP", "PWD", "LANG", "LANGUAGE", "TERM", ProjectDirVar:
		return true
	}
	return strings.HasPrefix(name, "XDG_") || strings.HasPrefix(name, "LC_")
}

// Expansion is one value that ${VAR} or ${secret:NAME} expansion put into
// a definition, from a variable harmlessVar does not pass: where it went
// (Field, as a Problem names it), what it came from (Ref, "${KEY}") and
// the value, a secret wherever it sits: a URL's path, an argument, a
// working directory.
type Expansion struct {
	Field string
	Ref   string
	Value string
}

// Secrets is the server's secret set: every value that must not reach
// output, errors, logs, recorded traffic or a support bundle. It holds
//   - every value expansion put into any field (Expanded: URL path,
//     arguments, working directory, headers, env, OAuth fields...),
//   - every env and header value, and the credential after an auth scheme
//     ("Bearer X", and the user and password inside "Basic X"),
//   - the URL's password (or lone user name) and its secret-looking query
//     values (as written and decoded),
//   - the values of secret-looking flags (--token X, --api-key=X),
//
// except an env or header value written only with harmless variables
// (PATH=${HOME}/bin:${PATH}). NewMasker decides which are long enough to
// mask and adds the forms they take in URLs and JSON.
func (s Server) Secrets() []string {
	var out []string
	add := func(v string) {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	secretSpots(s.Config, func(field, v string) string {
		if harmlessOnly(s.Raw.written(field)) {
			return v
		}
		add(v)
		if field == "url" {
			if dec, err := url.PathUnescape(v); err == nil {
				add(dec)
			}
		}
		scheme, cred, ok := strings.Cut(strings.TrimSpace(v), " ")
		if !ok {
			return v
		}
		add(cred)
		if strings.EqualFold(scheme, "basic") {
			if dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(cred)); err == nil {
				user, pass, _ := strings.Cut(string(dec), ":")
				add(user)
				add(pass)
			}
		}
		return v
	})
	for _, x := range s.Expanded {
		add(x.Value)
	}
	return out
}

// written is the env or header value as written of a secretSpots field
// ("env.API_KEY"), "" for any other field.
func (c ServerConfig) written(field string) string {
	if k, ok := strings.CutPrefix(field, "env."); ok {
		return c.Env[k]
	}
	if k, ok := strings.CutPrefix(field, "headers."); ok {
		return c.Headers[k]
	}
	return ""
}

// harmlessOnly reports whether raw refers to variables and every one of
// them is harmless (harmlessVar).
func harmlessOnly(raw string) bool {
	refs := textsafe.VarRefs(raw)
	for _, r := range refs {
		name, _, _ := strings.Cut(r[2:len(r)-1], ":-")
		if !harmlessVar(name) {
			return false
		}
	}
	return len(refs) > 0
}

// secretSpots returns cfg with each value that sits where a definition
// keeps a secret replaced by f(field, value): every env and header value
// (field "env.NAME", "headers.NAME"), the URL's user info (the password,
// or a lone user name, which is often a token) and the values of its
// secret-looking query parameters ("url"), and the values of
// secret-looking flags ("args[N]"). Redact masks those of a definition
// as written, Server.Secrets collects those of the expanded one: one list
// of places for both.
func secretSpots(cfg ServerConfig, f func(field, v string) string) ServerConfig {
	out := cfg
	out.Env = mapSpots("env.", cfg.Env, f)
	out.Headers = mapSpots("headers.", cfg.Headers, f)
	out.URL = textsafe.ReplaceURLSecrets(cfg.URL, func(v string) string { return f("url", v) })
	out.Args = textsafe.ReplaceFlagSecrets(cfg.Args, func(i int, v string) string { return f("args["+strconv.Itoa(i)+"]", v) })
	return out
}

// mapSpots applies f to the values of a copy of m.
func mapSpots(prefix string, m map[string]string, f func(field, v string) string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := maps.Clone(m)
	for k, v := range out {
		out[k] = f(prefix+k, v)
	}
	return out
}

// ownSecretVars are the environment variables that carry mcpdeck's own
// credentials: the gateway's token (mcpdeck serve), the OAuth client's
// secret and private key, the enterprise IdP's token and secret, and the
// value `mcp secret` stores. They sit beside the secret set because they
// are the other half of one promise: a server's secrets stay out of
// output, and mcpdeck's stay out of every child.
func ownSecretVars() []string {
	return []string{
		"MCPDECK_SERVE_TOKEN", "MCPDECK_CLIENT_SECRET", "MCPDECK_CLIENT_PRIVATE_KEY",
		"MCPDECK_IDP_ID_TOKEN", "MCPDECK_IDP_CLIENT_SECRET", "MCPDECK_SECRET_VALUE",
	}
}

// OwnSecretVar reports whether the environment variable name holds a
// credential of mcpdeck's own, which no child inherits (model/launch
// strips it from every program's environment), no sandbox passes, and no
// definition's ${VAR} expands: one of ownSecretVars, anything under
// MCPDECK_IDP_, and, so that a credential added later is covered before
// anyone remembers this list, any MCPDECK_ variable whose name ends in
// TOKEN, SECRET, KEY, PASSWORD or CREDENTIAL(S). Names compare
// case-insensitively, as Windows reads its environment.
func OwnSecretVar(name string) bool {
	n := strings.ToUpper(name)
	rest, ok := strings.CutPrefix(n, "MCPDECK_")
	if !ok {
		return false
	}
	if slices.Contains(ownSecretVars(), n) || strings.HasPrefix(rest, "IDP_") {
		return true
	}
	for _, suffix := range []string{"TOKEN", "SECRET", "KEY", "PASSWORD", "CREDENTIAL", "CREDENTIALS"} {
		if strings.HasSuffix(rest, suffix) {
			return true
		}
	}
	return false
}

// WithoutOwnSecrets returns env ("NAME=value" entries, as os.Environ
// gives them) without the variables OwnSecretVar names: the environment
// every program mcpdeck starts inherits.
func WithoutOwnSecrets(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !OwnSecretVar(name) {
			out = append(out, kv)
		}
	}
	return out
}
