package mcpcmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
)

// newMCPEnableCmd is `mcp enable` (enable true) or `mcp disable`: the choice
// is saved in the person's private state of the project (in the config
// dir, outside the working tree) and survives restarts.
func newMCPEnableCmd(g *clicore.Globals, enable bool) *cobra.Command {
	verb, done := "disable", "Disabled"
	if enable {
		verb, done = "enable", "Enabled"
	}
	return &cobra.Command{
		Use:     verb + " NAME|all",
		Short:   fmt.Sprintf("%s a server, or every server with all (saved in your private settings for this project)", done[:len(done)-1]),
		Example: fmt.Sprintf("  mcpdeck mcp %s github\n  mcpdeck mcp %s all", verb, verb),
		Args:    cliargs.ExactArgs(1, "one server NAME or all"),
		RunE: func(_ *cobra.Command, args []string) error {
			opts, err := g.LoadOptions()
			if err != nil {
				return err
			}
			if err := config.SetEnabled(opts, args[0], enable); err != nil {
				return explainNotFound(g, args[0], err)
			}
			if args[0] == "all" {
				fmt.Fprintf(g.Stdout, "%s all servers.\n", done)
			} else {
				fmt.Fprintf(g.Stdout, "%s server %s.\n", done, args[0])
			}
			return nil
		},
	}
}
