package cli

import "github.com/spf13/cobra"

// addEngineCommands adds the commands that connect to servers: tools,
// resources, prompts, call, read, prompt, auth, mcp reconnect, and makes
// `mcp list` connect (a health check) instead of only reading the config.
func addEngineCommands(root *cobra.Command, g *globalOpts) {
	if mcp, _, err := root.Find([]string{"mcp"}); err == nil && mcp != root {
		connecting := newEngMCPListCmd(g)
		if list, _, err := mcp.Find([]string{"list"}); err == nil && list != mcp {
			// keep the config engineer's command (flags, aliases), connect in RunE
			list.Short, list.Long = connecting.Short, connecting.Long
			list.Args, list.RunE, list.Run = connecting.Args, connecting.RunE, nil
		} else {
			mcp.AddCommand(connecting)
		}
		replaceCommand(mcp, newEngReconnectCmd(g))
	}
	root.AddCommand(newEngBrowseCmds(g)...)
	root.AddCommand(newEngCallCmds(g)...)
	root.AddCommand(newBatchCmd(g))
	root.AddCommand(newEngSkillsCmds(g)...)
	if !hasEngSubcommand(root, "auth") {
		root.AddCommand(newAuthCmd(g)) // auth.go: sign in / --logout
	}
}

func hasEngSubcommand(parent *cobra.Command, name string) bool {
	for _, c := range parent.Commands() {
		if c.Name() == name {
			return true
		}
	}
	return false
}
