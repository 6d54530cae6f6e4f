package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

// newMCPCmd is `mcpdeck mcp`: the commands that read and edit server
// configuration, plus `list` (which connects unless --no-connect) and
// `reconnect`.
func newMCPCmd(g *globalOpts) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Configure MCP servers (add, remove, list, enable, approve, sampling, import, migrate-local)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var names []string
			for _, c := range cmd.Commands() {
				if c.IsAvailableCommand() {
					names = append(names, c.Name())
				}
			}
			return usagef("mcp needs a subcommand: %s", strings.Join(names, ", "))
		},
	}
	cmd.AddCommand(
		newMCPAddCmd(g),
		newMCPAddJSONCmd(g),
		newMCPRemoveCmd(g),
		newMCPGetCmd(g),
		newMCPListCmd(g),
		newEngReconnectCmd(g),
		newMCPEnableCmd(g, true),
		newMCPEnableCmd(g, false),
		newMCPApproveCmd(g, true),
		newMCPApproveCmd(g, false),
		newMCPSamplingCmd(g),
		newMCPSecretCmd(g),
		newMCPImportCmd(g),
		newMCPMigrateLocalCmd(g),
	)
	return cmd
}
