package mcpcmd

import (
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// warnLiteralSecrets warns, naming each env variable and header, when a
// definition going into the project's shared .mcp.json carries a literal
// value that looks like a secret (textsafe.IsLiteralSecret): everyone who gets
// the repository would read it. A ${VAR} reference keeps the value in the
// person's environment instead.
func warnLiteralSecrets(w io.Writer, scope model.Scope, name string, cfg model.ServerConfig) {
	if scope != model.ScopeProject {
		return
	}
	warn := func(kind string, m map[string]string) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if textsafe.IsLiteralSecret(k, m[k]) {
				fmt.Fprintf(w, "Warning: %s %s of server %s is a literal value that looks like a secret, and the project scope is the shared .mcp.json: "+
					"anyone with the repository can read it. Use a reference such as ${%s} (set in your environment) or add the server with -s local.\n",
					kind, textsafe.SanitizeLine(k), textsafe.SanitizeLine(name), envName(k))
			}
		}
	}
	warn("env", cfg.Env)
	warn("header", cfg.Headers)
}

// envName suggests a variable name for a header or env key.
func envName(key string) string {
	out := []rune{}
	for _, r := range key {
		switch {
		case r >= 'a' && r <= 'z':
			out = append(out, r-'a'+'A')
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			out = append(out, r)
		default:
			out = append(out, '_')
		}
	}
	return string(out)
}
