package engcmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
)

// NewLogsCmd is `mcpdeck logs SERVER`: connect only SERVER and print the
// log messages it sends (notifications/message) at or above --level, as
// "SERVER level: text" on stderr; with --follow until Ctrl-C.
func NewLogsCmd(g *clicore.Globals) *cobra.Command {
	var follow bool
	level := "info"
	cmd := &cobra.Command{
		Use:   "logs SERVER",
		Short: "Print a server's log messages (those it sends while connecting, or until Ctrl-C with --follow)",
		Example: "  mcpdeck logs everything --follow\n" +
			"  mcpdeck logs everything --level error --follow",
		Args: clicore.ExactArgs(1, "one server SERVER"),
		RunE: func(cmd *cobra.Command, args []string) error {
			g.LogLevel = level // the engine's OnLog prints at this level
			f := clicore.NewEngineFlagsInline(g)
			return clicore.Cancelled(clicore.WithServer(cmd.Context(), f, args[0], func(ctx context.Context, s *clicore.Session) error {
				if err := s.Eng.SetLogLevel(ctx, args[0], level); err != nil {
					return err
				}
				if follow {
					<-ctx.Done()
					return ctx.Err()
				}
				return nil
			}))
		},
	}
	cmd.Flags().Var(clicore.NewEnumFlag(&level, "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"), "level",
		"print messages at or above this level (the server is asked for it too)")
	cmd.Flags().BoolVarP(&follow, "follow", "f", false, "keep printing until Ctrl-C")
	return cmd
}
