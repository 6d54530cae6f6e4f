package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/transports"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/demo"
)

// newDemoCmd is `mcpdeck demo`: the TUI on built-in servers, with a
// throw-away configuration and no network.
func newDemoCmd(g *clicore.Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Open the TUI on built-in demo servers (no config files, no network)",
		Long: "Opens the TUI on a set of built-in servers: healthy in-process ones (notes, calculator,\n" +
			"weather-sim, survey — whose tool asks you a question — and webmail, whose send_email turns\n" +
			"poisoned after 30 s and is withheld until you review it), a stdio server that crashes every\n" +
			"~20 s and reconnects with backoff, a project server that waits for your approval and one blocked\n" +
			"by a demo policy. Everything lives in a temporary directory removed on exit.",
		Args: cliargs.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			exe, err := os.Executable()
			if err != nil {
				return fmt.Errorf("cannot find the mcpdeck binary for the demo's stdio servers: %w", err)
			}
			env, err := demo.Setup(exe)
			if err != nil {
				return err
			}
			defer env.Cleanup()
			eo := engine.Options{
				Load: env.Load, Factory: transports.NewFactory(), Builtins: env.Builtins,
				Extra: env.Extra, CacheDir: env.CacheDir, ClientVersion: clicore.ModuleVersion(),
			}
			if err := g.TraceInto(&eo); err != nil {
				return err
			}
			return runTUI(cmd.Context(), g, eo, "mcpdeck demo", nil)
		},
	}
}

// newDemoServerCmd is the hidden `mcpdeck demo-server NAME`: the demo's
// stdio servers, served by the same binary.
func newDemoServerCmd(g *clicore.Globals) *cobra.Command {
	return &cobra.Command{
		Use:    "demo-server NAME",
		Short:  "Serve one demo server over stdio (used by mcpdeck demo)",
		Hidden: true,
		Args:   cliargs.ExactArgs(1, "NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			err := demo.Serve(cmd.Context(), args[0], os.Getenv(demo.StateEnv), cmd.InOrStdin(), g.RawStdout, g.RawStderr)
			if errors.Is(err, demo.ErrUnknownServer) {
				return clierr.Usagef("%v", err)
			}
			return err
		},
	}
}
