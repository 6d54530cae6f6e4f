package cli

import (
	"github.com/spf13/cobra"
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
		return runTUI(cmd.Context(), g, eo, "mcpdeck")
	}
	root.AddCommand(newDemoCmd(g), newDemoServerCmd(g))
}
