package mcpcmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clinames"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
)

// newMCPDenyCmd is `mcp deny SERVER TOOL` (deny) or `mcp allow SERVER
// TOOL`: the TUI's D from the command line. Deny adds the permissions.deny
// rule mcp__SERVER__TOOL to your private settings of this project (agents
// using your settings no longer get the tool, serve does not offer it, a
// call is refused); allow removes that rule again.
func newMCPDenyCmd(g *clicore.Globals, deny bool) *cobra.Command {
	verb, short := "allow", "Allow a tool again that mcp deny (or D in the TUI) denied"
	if deny {
		verb, short = "deny", "Deny one tool of a server: a permissions.deny rule in your private settings of this project"
	}
	return &cobra.Command{
		Use:     verb + " SERVER TOOL",
		Short:   short,
		Example: fmt.Sprintf("  mcpdeck mcp %s github delete_repository", verb),
		Args:    cliargs.ExactArgs(2, "a server and one of its tools"),
		RunE: func(_ *cobra.Command, args []string) error {
			opts, err := g.LoadOptions()
			if err != nil {
				return err
			}
			res, err := g.Load(opts)
			if err != nil {
				return err
			}
			srv, ok := res.Server(args[0])
			if !ok {
				return clisession.UnknownServer(args[0], clinames.ServerNames(res))
			}
			rule := model.ToolName(srv.Name, args[1])
			if err := config.SetToolDenied(opts, rule, deny); err != nil {
				return err
			}
			if deny {
				fmt.Fprintf(g.Stdout, "Denied %s: agents using your settings no longer get it (mcpdeck mcp allow %s %s undoes it).\n",
					rule, textsafe.QuoteArg(srv.Name), textsafe.QuoteArg(args[1]))
				return nil
			}
			after, err := g.Load(opts)
			if err != nil {
				return err
			}
			if ok, why := after.Permissions.Check(rule); !ok && why != "" {
				fmt.Fprintf(g.Stdout, "Removed the rule denying %s, but it is still denied (%s).\n", rule, textsafe.SanitizeLine(why))
				return nil
			}
			fmt.Fprintf(g.Stdout, "Allowed %s again.\n", rule)
			return nil
		},
	}
}
