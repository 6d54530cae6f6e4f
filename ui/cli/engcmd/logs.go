package engcmd

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
)

// NewLogsCmd is `mcpdeck logs SERVER`: connect only SERVER and print the
// log messages it sends (notifications/message) at or above --level, as
// "SERVER level: text" on stderr; with --follow until Ctrl-C. When there
// was nothing to print it says so, and how to see more, and still exits 0,
// like `kubectl logs` of a quiet pod: the server was reached and asked,
// and an empty log is an answer, not a failure (exit 1 stays for a server
// that could not be reached, so scripts collecting logs can tell the two).
func NewLogsCmd(g *clicore.Globals) *cobra.Command {
	var follow, stderr bool
	level := "info"
	cmd := &cobra.Command{
		Use:   "logs SERVER",
		Short: "Print a server's log messages (those it sends while connecting, until it is quiet for half a second; with --follow until Ctrl-C)",
		Example: "  mcpdeck logs everything --follow\n" +
			"  mcpdeck logs everything --level error --follow\n" +
			"  mcpdeck logs everything --stderr",
		Args: cliargs.ExactArgs(1, "one server SERVER"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if stderr {
				if follow {
					return clierr.Usagef("--stderr prints the server's saved stderr; --follow is for its log messages")
				}
				return printStderrLog(g, args[0])
			}
			g.LogLevel = level // the engine's OnLog prints at this level
			f := clisession.NewEngineFlagsInline(g)
			return clierr.Cancelled(clisession.WithServer(cmd.Context(), f, args[0], func(ctx context.Context, s *clisession.Session) error {
				if err := s.Eng.SetLogLevel(ctx, args[0], level); err != nil {
					return err
				}
				if follow {
					<-ctx.Done()
					return ctx.Err()
				}
				untilQuiet(ctx, f)
				if printed, below := f.LogsSeen(); printed == 0 {
					fmt.Fprintln(g.Stderr, "mcpdeck: "+noLogs(args[0], level, below))
				}
				return nil
			}))
		},
	}
	cmd.Flags().Var(cliargs.NewEnumFlag(&level, "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"), "level",
		"print messages at or above this level (the server is asked for it too)")
	cmd.Flags().BoolVarP(&follow, "follow", "f", false, "keep printing until Ctrl-C")
	cmd.Flags().BoolVar(&stderr, "stderr", false, "print instead what the server wrote on stderr, as saved by every run (the TUI's, serve's, the CLI's), without connecting it")
	return cmd
}

// Without --follow, logs waits for the server to go quiet before it
// stops: a server finishing its start (asking for the client's roots, then
// saying what it got) logs just after connecting and after the level is
// set, and the TUI's Logs tab shows those lines a moment later. It stops
// once no message came for logsQuiet, and at logsMost whatever comes.
const (
	logsQuiet = 500 * time.Millisecond
	logsMost  = 3 * time.Second
)

// untilQuiet waits until the server sent no log message for logsQuiet,
// at most logsMost.
func untilQuiet(ctx context.Context, f *clisession.EngineFlags) {
	seen := func() int { p, b := f.LogsSeen(); return p + b }
	most := time.NewTimer(logsMost)
	defer most.Stop()
	quiet := time.NewTimer(logsQuiet)
	defer quiet.Stop()
	last := seen()
	for {
		select {
		case <-ctx.Done():
			return
		case <-most.C:
			return
		case <-quiet.C:
			now := seen()
			if now == last {
				return
			}
			last = now
			quiet.Reset(logsQuiet)
		}
	}
}

// noLogs says that server sent nothing to show at level, and how to see
// more: a lower --level (naming how many messages it hid), or --follow.
func noLogs(server, level string, below int) string {
	msg := server + " sent no log messages while connecting"
	if level != "debug" {
		msg = server + " sent no log messages at " + level + " or above while connecting"
	}
	switch {
	case below == 1:
		return msg + " (1 below it): --level debug shows it, --follow waits for new ones."
	case below > 1:
		return msg + " (" + strconv.Itoa(below) + " below it): --level debug shows them, --follow waits for new ones."
	case level != "debug":
		return msg + ": --level debug shows more, --follow waits for new ones."
	}
	return msg + ": --follow waits for new ones."
}
