package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
)

func newMCPRemoveCmd(g *globalOpts) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "remove NAME [-s local|user|project]",
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
		where := "its scope"
		if s != 0 {
			where = "the " + s.String() + " scope"
		}
		fmt.Fprintf(g.stdout, "Removed server %s from %s (%s).\n", args[0], where, path)
		return nil
	}
	return cmd
}
