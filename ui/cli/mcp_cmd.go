package cli

import (
	"github.com/spf13/cobra"
)

// newMCPCmd is `mcpdeck mcp`: the commands that read and edit server
// configuration without connecting to anything.
func newMCPCmd(g *globalOpts) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Configure MCP servers (add, remove, list, enable, approve, import)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cmd.SetOut(cmd.ErrOrStderr())
			_ = cmd.Usage()
			return usagef("mcp needs a subcommand")
		},
	}
	cmd.AddCommand(
		newMCPAddCmd(g),
		newMCPAddJSONCmd(g),
		newMCPRemoveCmd(g),
		newMCPGetCmd(g),
		newMCPListCmd(g),
		newMCPEnableCmd(g, true),
		newMCPEnableCmd(g, false),
		newMCPApproveCmd(g, true),
		newMCPApproveCmd(g, false),
		newMCPImportCmd(g),
	)
	return cmd
}
