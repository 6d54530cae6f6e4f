package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
)

func newMCPRemoveCmd(g *globalOpts) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "remove NAME [-s local|project|user]",
		Aliases: []string{"rm"},
		Short:   "Remove a server from the config file of its scope",
		Example: "  mcpdeck mcp remove github\n  mcpdeck mcp remove github -s user   # when it is defined in several scopes",
		Args:    exactArgs(1, "one server NAME"),
	}
	scope := addScopeFlag(cmd, 0, "the scope to remove it from (needed when it is defined in several)")
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		opts, err := g.loadOptions()
		if err != nil {
			return err
		}
		s := scope()
		path, err := model.RemoveServer(opts, s, args[0])
		if err != nil {
			return err
		}
		fmt.Fprintf(g.stdout, "Removed server %s from the %s scope (%s).\n", args[0], scopeOfPath(opts, s, path), path)
		return nil
	}
	return cmd
}

// scopeOfPath names the writable scope whose file is path (the scope given,
// or found by RemoveServer when none was).
func scopeOfPath(opts model.LoadOptions, given model.Scope, path string) model.Scope {
	if given != 0 {
		return given
	}
	for _, sc := range model.WritableScopes() {
		if p, err := model.ScopePath(opts, sc); err == nil && p == path {
			return sc
		}
	}
	return 0
}
