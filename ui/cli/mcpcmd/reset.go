package mcpcmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
)

// newMCPResetProjectChoicesCmd is Claude Code's `mcp
// reset-project-choices`: forget every approval and rejection of this
// project's .mcp.json servers, so each asks again.
func newMCPResetProjectChoicesCmd(g *clicore.Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "reset-project-choices",
		Short: "Forget your approvals and rejections of this project's .mcp.json servers: each asks again",
		Args:  cliargs.ExactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			opts, err := g.LoadOptions()
			if err != nil {
				return err
			}
			forgot, err := config.ResetProjectChoices(opts)
			if err != nil {
				return err
			}
			if !forgot {
				fmt.Fprintln(g.Stdout, "No approval or rejection of a project server to forget.")
				return nil
			}
			fmt.Fprintln(g.Stdout, "Forgot your approvals and rejections of this project's servers: each asks again (mcpdeck, or mcpdeck mcp approve NAME).")
			return nil
		},
	}
}
