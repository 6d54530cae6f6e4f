package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// addTUICommands wires the interactive side of mcpdeck into the root command:
// running `mcpdeck` with no command, and `mcpdeck demo`. This placeholder is
// replaced by the TUI (which sets root.RunE to runTUI and adds newDemoCmd()).
func addTUICommands(root *cobra.Command, _ *globalOpts) {
	root.RunE = func(*cobra.Command, []string) error {
		return errors.New("the TUI is not built yet; see 'mcpdeck mcp --help' for the config commands")
	}
}
