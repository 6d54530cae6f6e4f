package mcpcmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/clinames"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliprompt"
	"github.com/mcpdeck/mcpdeck/ui/cli/registrycmd"
)

func newMCPRemoveCmd(g *clicore.Globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "remove NAME [-s local|project|user]",
		Aliases: []string{"rm"},
		Short:   "Remove a server from the config file of its scope",
		Example: "  mcpdeck mcp remove github\n  mcpdeck mcp remove github -s user   # when it is defined in several scopes",
		Args:    cliargs.ExactArgs(1, "one server NAME"),
	}
	scope := cliargs.AddScopeFlag(cmd, 0, "the scope to remove it from (needed when it is defined in several)")
	var keep bool
	cmd.Flags().BoolVar(&keep, "keep-secrets", false, "keep the secrets its ${secret:NAME} references took from mcpdeck's secret store (deleted otherwise; asked at a terminal)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		opts, err := g.LoadOptions()
		if err != nil {
			return err
		}
		s := scope()
		refs := config.SecretsOf(opts, s, args[0])
		bundle := bundleDirOf(opts, s, args[0])
		path, err := config.RemoveServer(opts, s, args[0])
		if err != nil {
			return explainRemoveErr(g, args[0], err)
		}
		fmt.Fprintf(g.Stdout, "Removed server %s from the %s scope (%s).\n", args[0], scopeOfPath(opts, s, path), path)
		if bundle != "" {
			fmt.Fprintf(g.Stdout, "Its MCP bundle stays in %s: servers in other scopes or projects may run it; delete that directory when none does.\n", textsafe.SanitizeLine(bundle))
		}
		return removeSecrets(cmd.Context(), g, opts, refs, keep)
	}
	return cmd
}

// explainRemoveErr words a failed removal: for a name defined in several
// scopes, the exact command for each (on stderr, one per line, then exit
// 1; with --json the error names the scopes); for a name defined nowhere,
// the one a typo most likely meant.
func explainRemoveErr(g *clicore.Globals, name string, err error) error {
	var several *config.SeveralScopesError
	switch {
	case errors.As(err, &several) && !g.JSON:
		fmt.Fprintf(g.Stderr, "mcpdeck: server %s is defined in several scopes; name the one to remove:\n", textsafe.SanitizeLine(name))
		for _, sc := range several.Scopes {
			fmt.Fprintf(g.Stderr, "  mcpdeck mcp remove %s -s %s\n", textsafe.QuoteArg(name), sc)
		}
		return clierr.SilentError{}
	case errors.Is(err, model.ErrNotFound):
		if res, lerr := clicore.LoadResolved(g); lerr == nil {
			return clinames.WithDidYouMean(err, name, clinames.ServerNames(res))
		}
	}
	return err
}

// removeSecrets deletes the secrets a removed definition referred to: they
// are bound to it, so nothing else can use them. At a terminal the person
// is asked first; --keep-secrets keeps them.
func removeSecrets(ctx context.Context, g *clicore.Globals, opts config.LoadOptions, refs []config.SecretRef, keep bool) error {
	if len(refs) == 0 {
		return nil
	}
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = r.Name
	}
	list := strings.Join(names, ", ")
	if !keep && cliprompt.OnTerminal(g) {
		ok, err := cliprompt.Confirm(g, "Delete its secrets "+list+" from mcpdeck's secret store?")
		if err != nil {
			return err
		}
		keep = !ok
	}
	if keep {
		fmt.Fprintf(g.Stdout, "Kept its secrets %s in mcpdeck's secret store (mcpdeck mcp secret %s NAME -s %s --delete removes one).\n",
			list, textsafe.QuoteArg(refs[0].Server), refs[0].Scope)
		return nil
	}
	store := g.SecretStore(opts.ConfigDir)
	for _, r := range refs {
		if err := store.Delete(ctx, r); err != nil && !errors.Is(err, config.ErrSecretNotFound) {
			return fmt.Errorf("deleting the secret %s: %w", r.Name, err)
		}
	}
	fmt.Fprintf(g.Stdout, "Deleted its secrets %s from mcpdeck's secret store.\n", list)
	return nil
}

// scopeOfPath names the writable scope whose file is path (the scope given,
// or found by RemoveServer when none was).
func scopeOfPath(opts config.LoadOptions, given model.Scope, path string) model.Scope {
	if given != 0 {
		return given
	}
	for _, sc := range config.WritableScopes() {
		if p, err := config.ScopePath(opts, sc); err == nil && p == path {
			return sc
		}
	}
	return 0
}

// bundleDirOf is the directory of the MCP bundle the server name (of
// scope, 0 = whichever defines it) runs from, when mcpdeck unpacked one
// for it (mcp add --registry); "" otherwise. mcp remove leaves the
// directory: a server of another scope or project may run the same
// bundle, and mcpdeck does not search every project's private state for
// one. Only the definitions as written are read: the secret store is not
// asked for the ${secret:NAME} values of every server (keychain reads, each
// bounded by its timeout) to learn one server's working directory.
func bundleDirOf(opts config.LoadOptions, scope model.Scope, name string) string {
	opts.LookupSecret = config.SkipSecrets
	r, err := config.Load(opts)
	if err != nil {
		return ""
	}
	for _, srv := range r.Servers {
		if srv.Name == name && (scope == 0 || srv.Scope == scope) && registrycmd.BundleStore(opts).Unpacked(srv.Raw.Cwd) {
			return srv.Raw.Cwd
		}
	}
	return ""
}
