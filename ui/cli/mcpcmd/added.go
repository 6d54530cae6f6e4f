package mcpcmd

import (
	"fmt"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
)

// reportAdded confirms what `mcp add` / `mcp add-json` wrote and, reading the
// configuration back, says at once why the new server will not run as it
// stands: managed-mcp.json in effect, a higher scope's definition of the same
// name, a managed-policy block, an unset ${VAR}, relative paths that name
// something under home (it runs there), or approval still needed; and which
// lower scope's definition of the same name it now hides.
// A person should not learn this only later from `mcp list`.
func reportAdded(g *clicore.Globals, opts config.LoadOptions, scope model.Scope, name string, cfg model.ServerConfig, path string) {
	fmt.Fprintf(g.Stdout, "Added %s server %s to the %s scope (%s).\n", cfg.EffectiveType(), textsafe.SanitizeLine(name), scope, textsafe.SanitizeLine(path))
	res, err := g.Load(opts)
	if err != nil {
		return
	}
	note := func(format string, a ...any) { fmt.Fprintf(g.Stderr, "Note: "+format+"\n", a...) }
	if res.Enterprise {
		note("%s in the managed directory is in effect, so mcpdeck ignores %s (and every server outside it) while that file exists.",
			config.ManagedMCPFile, textsafe.SanitizeLine(name))
		return
	}
	s, ok := res.Server(name)
	if !ok {
		return
	}
	if s.Scope != scope {
		note("the %s definition of %s (%s) takes precedence over this one.", s.Scope, textsafe.SanitizeLine(name), textsafe.SanitizeLine(s.Source))
		return
	}
	for _, o := range s.Overrides {
		note("this definition takes precedence over the %s definition of %s (%s), which no longer runs.", o.Scope, textsafe.SanitizeLine(name), textsafe.SanitizeLine(o.Source))
	}
	switch {
	case !s.Policy.Allowed && s.Policy.Rule != "":
		note("managed policy blocks %s (%s), so it will not run.", textsafe.SanitizeLine(name), textsafe.SanitizeLine(s.Policy.Rule))
	case !s.Policy.Allowed:
		note("managed policy blocks %s, so it will not run.", textsafe.SanitizeLine(name))
	}
	for _, p := range s.Problems {
		note("%s", clierr.Sentence(p))
	}
	if len(s.HomeRelative) > 0 {
		note("%s.", clicore.HomeRelativeText(s))
	}
	if s.Scope == model.ScopeProject {
		fmt.Fprintf(g.Stdout, "Project servers run only once approved: mcpdeck mcp approve %s\n", textsafe.QuoteArg(name))
	}
}
