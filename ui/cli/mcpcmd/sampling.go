package mcpcmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
)

// newMCPSamplingCmd is `mcp sampling NAME always|never|ask`: the person's
// standing answer to a server's sampling requests, saved in their private
// state of the project (the TUI's prompt saves the same on A and X).
func newMCPSamplingCmd(g *clicore.Globals) *cobra.Command {
	decisions := map[string]model.SamplingDecision{"always": model.SamplingAlways, "never": model.SamplingNever, "ask": model.SamplingAsk}
	return &cobra.Command{
		Use:   "sampling NAME always|never|ask",
		Short: "Allow, refuse or ask about a server's sampling requests (saved in your private settings for this project)",
		Long: "A server may ask for a model's reply (sampling). mcpdeck has no model: you type the reply in the TUI, " +
			"or a command you chose writes it (--sampling-command, or \"sampling\": {\"command\": …} in your user config). " +
			"always: reply without asking; never: decline without asking; ask: ask each time (the default).",
		Example: "  mcpdeck mcp sampling notes never\n  mcpdeck mcp sampling notes ask",
		Args:    cliargs.ExactArgs(2, "a server NAME and always, never or ask"),
		RunE: func(_ *cobra.Command, args []string) error {
			d, ok := decisions[args[1]]
			if !ok {
				return clierr.Usagef("sampling decision %q: use always, never or ask", args[1])
			}
			opts, err := g.LoadOptions()
			if err != nil {
				return err
			}
			if err := config.SetSamplingDecision(opts, args[0], d); err != nil {
				return explainNotFound(g, args[0], err)
			}
			fmt.Fprintf(g.Stdout, "Sampling requests of %s: %s.\n", args[0], args[1])
			return nil
		},
	}
}
