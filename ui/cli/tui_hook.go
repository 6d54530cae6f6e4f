package cli

import (
	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
)

// addTUICommands wires the interactive side of mcpdeck into the root command:
// `mcpdeck` with no command opens the TUI on the person's configuration,
// `mcpdeck demo` on the built-in demo servers; `mcpdeck demo-server NAME`
// (hidden) serves the demo's stdio servers.
func addTUICommands(root *cobra.Command, g *globalOpts) {
	root.RunE = func(cmd *cobra.Command, _ []string) error {
		eo, err := tuiEngineOptions(g)
		if err != nil {
			return err
		}
		if err := runTUI(cmd.Context(), g, eo, "mcpdeck"); err != nil {
			return err
		}
		// The TUI listed the untrusted-file notice (an engine warning) and
		// printed it again on exit: the person has been told.
		if u, err := model.FindUntrusted(eo.Load); err == nil && u != nil && !u.Told {
			markUntrustedTold(g, eo.Load, *u)
		}
		return nil
	}
	root.AddCommand(newDemoCmd(g), newDemoServerCmd(g))
}
