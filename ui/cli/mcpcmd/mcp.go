// Package mcpcmd is `mcpdeck mcp`: the commands that read and edit server
// definitions (add, add-json, remove, get, enable, disable, approve,
// reject, sampling, secret, import, migrate-local), `list`, which connects
// every server unless --no-connect, and `reconnect`. What a definition
// shows (serverView) and how it is listed live here too.
package mcpcmd

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
)

// NewCmd is `mcpdeck mcp`: the commands that read and edit server
// configuration, plus `list` (which connects unless --no-connect) and
// `reconnect`.
func NewCmd(g *clicore.Globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Configure MCP servers (add, remove, list, enable, approve, sampling, import, migrate-local)",
		Args:  cliargs.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var names []string
			for _, c := range cmd.Commands() {
				if c.IsAvailableCommand() {
					names = append(names, c.Name())
				}
			}
			return clierr.Usagef("mcp needs a subcommand: %s", strings.Join(names, ", "))
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
		newMCPDenyCmd(g, true),
		newMCPDenyCmd(g, false),
		newMCPSecretCmd(g),
		newMCPImportCmd(g),
		newMCPMigrateLocalCmd(g),
		newMCPReviewCmd(g),
		newMCPLockCmd(g),
		// Claude Code's words for what mcpdeck also does
		newMCPAddFromClaudeDesktopCmd(g),
		newMCPResetProjectChoicesCmd(g),
	)
	return cmd
}
