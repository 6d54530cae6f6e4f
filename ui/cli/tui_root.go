package cli

import (
	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
)

// runDefaultTUI is what `mcpdeck` with no command does: open the TUI on the
// person's configuration. (`mcpdeck demo` opens it on the built-in demo
// servers, see demo.go.)
func runDefaultTUI(cmd *cobra.Command, g *clicore.Globals) error {
	eo, err := clisession.TUIEngineOptions(g)
	if err != nil {
		return err
	}
	reg := newTUIRegistry(g, eo.Load)
	defer reg.closeBundles()
	if err := runTUI(cmd.Context(), g, eo, "mcpdeck", reg); err != nil {
		return err
	}
	// The TUI listed the untrusted-file notice (an engine warning) and
	// printed it again on exit: the person has been told.
	if u, err := config.FindUntrusted(eo.Load); err == nil && u != nil && !u.Told {
		markUntrustedTold(g, eo.Load, *u)
	}
	return nil
}
