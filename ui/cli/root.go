// Package cli is mcpdeck's command line: the root command, which wires the
// command groups of its sub-packages into one cobra tree around one
// clicore.Globals, Execute and Run (exit codes, the sanitizing writers
// around stdout and stderr, the last error), and the entry to the TUI and
// the demo. Each command group lives in a package of its own: mcpcmd
// (`mcp ...`), engcmd (the commands that use servers' tools, resources,
// prompts, skills and logs), batch, doctor, registrycmd, authcmd, servecmd
// and completion; clicore holds what they share.
package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/ui/cli/authcmd"
	"github.com/mcpdeck/mcpdeck/ui/cli/batch"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/clinames"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
	"github.com/mcpdeck/mcpdeck/ui/cli/completion"
	"github.com/mcpdeck/mcpdeck/ui/cli/doctor"
	"github.com/mcpdeck/mcpdeck/ui/cli/engcmd"
	"github.com/mcpdeck/mcpdeck/ui/cli/mcpcmd"
	"github.com/mcpdeck/mcpdeck/ui/cli/registrycmd"
	"github.com/mcpdeck/mcpdeck/ui/cli/servecmd"
)

// Execute runs the command line (without the program name) and returns the
// process exit code: 0 success, 1 failure, 2 usage error, 130 interrupted.
func Execute(args []string) int {
	// Whatever a server starts stays mcpdeck's to end, even once its
	// parent exited (a daemon), and nothing of it outlives mcpdeck.
	_ = platform.BecomeSubreaper()
	defer platform.EndStrays()
	// Ctrl-C, a closed terminal (SIGHUP) and SIGTERM end the command the
	// orderly way, its servers stopped with it; SIGTERM's is a stop asked
	// for (clierr.ErrTerminated), the others interrupt.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGHUP)
	defer stop()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	defer signal.Stop(term)
	go func() {
		select {
		case <-term:
			cancel(clierr.ErrTerminated)
		case <-ctx.Done():
		}
	}()
	return Run(ctx, args, os.Stdin, os.Stdout, os.Stderr)
}

// Run is Execute with explicit I/O. Commands print through the sanitizing
// writer cliout.NewTerminalWriter makes, so no outside text reaches the
// terminal unsanitized. Tests run the command line in process with it.
func Run(ctx context.Context, args []string, stdin io.Reader, rawStdout, rawStderr io.Writer) int {
	stdout, stderr := cliout.NewTerminalWriter(rawStdout), cliout.NewTerminalWriter(rawStderr)
	g := &clicore.Globals{
		Stdin: stdin, Stdout: stdout, Stderr: stderr, RawStdout: rawStdout, RawStderr: rawStderr,
		NewLoadOptions: config.DefaultLoadOptions,
	}
	root := newRootCmd(g)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	g.CloseTrace()
	if err == nil {
		return clierr.ExitOK
	}
	var ue *clierr.UsageError
	if isFlagError(err) || errors.As(err, &ue) {
		msg := err.Error()
		if ue != nil {
			msg = ue.Error()
		}
		cliout.ReportError(stderr, g.JSON, msg, cmd.CommandPath())
		return clierr.ExitUsage
	}
	var se clierr.SilentError
	if !errors.As(err, &se) {
		cliout.ReportError(stderr, g.JSON, g.RunMask().Mask(clierr.Sentence(err)), "")
	}
	if ctx.Err() != nil { // Ctrl-C: the command stopped because it was asked to
		return clierr.ExitInterrupted
	}
	return clierr.ExitFailure
}

// newRootCmd builds the whole command tree around one clicore.Globals. Every
// command is built complete by its own constructor, with its dependencies
// passed in; what it does (Run, Args, help text) is never changed afterwards
// (tree_test.go checks this, in every sub-package). The two passes at the
// end only add typo suggestions and shell completion to the finished tree.
func newRootCmd(g *clicore.Globals) *cobra.Command {
	root := &cobra.Command{
		Use:   "mcpdeck",
		Short: "A terminal connection manager for MCP servers",
		Long: "mcpdeck finds every MCP server you have configured, asks before starting servers a\n" +
			"repository brought along, connects to them and lets you browse and call their tools.\n\n" +
			"Without a command it opens the interactive TUI.",
		Args:          cliargs.NoArgs,
		Version:       clicore.BuildVersion(),
		SilenceUsage:  true,
		SilenceErrors: true,
		// Flags may come before or after the subcommand.
		TraverseChildren: true,
		PersistentPreRun: func(cmd *cobra.Command, _ []string) { tellUntrustedOnce(g, cmd) },
		RunE:             func(cmd *cobra.Command, _ []string) error { return runDefaultTUI(cmd, g) },
	}
	root.SetHelpFunc(writeHelp) // every command's help fits 80 columns (help.go)
	root.SetUsageFunc(writeUsage)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return clierr.Usagef("%s", err)
	})
	pf := root.PersistentFlags()
	pf.StringArrayVar(&g.MCPConfig, "mcp-config", nil,
		"servers for this run only, from `FILE_OR_JSON`: a config file path or inline JSON (repeatable)")
	pf.Var(cliargs.NewEnumFlag(&g.Elicit, clicore.ElicitAcceptDefaults, clicore.ElicitDecline, clicore.ElicitCancel), "elicit",
		"answer server elicitation requests without a TUI: accept-defaults, decline or cancel")
	g.Sampling = "decline"
	pf.Var(cliargs.NewEnumFlag(&g.Sampling, "decline"), "sampling",
		"answer servers' sampling requests that no command replies to: decline (the CLI has no one to ask)")
	pf.StringVar(&g.SamplingCommand, "sampling-command", "",
		"reply to servers' sampling requests with `CMD` (run by the shell; the request as JSON on stdin, the reply text on stdout)")
	pf.BoolVar(&g.JSON, "json", false, "print machine-readable JSON")
	pf.StringVar(&g.TracePath, "trace", "",
		"write every JSON-RPC message with every server to `FILE` as JSON lines (created 0600; secrets masked)")
	g.LogLevel = "warning"
	pf.Var(cliargs.NewEnumFlag(&g.LogLevel, "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency", "off"), "log-level",
		"print servers' log messages at or above this level on stderr while a command runs")

	mcp := mcpcmd.NewCmd(g)
	mcp.AddCommand(servecmd.NewCmd(g)) // Claude Code's `mcp serve`: the same serve
	root.AddCommand(mcp)
	root.AddCommand(engcmd.NewBrowseCmds(g)...) // tools, resources, prompts
	root.AddCommand(engcmd.NewCallCmds(g)...)   // call, read, prompt
	root.AddCommand(batch.NewCmd(g))
	root.AddCommand(engcmd.NewSkillsCmds(g)...)
	root.AddCommand(engcmd.NewLogsCmd(g))
	root.AddCommand(doctor.NewCmd(g))
	root.AddCommand(engcmd.NewContextCmd(g))
	root.AddCommand(engcmd.NewScanCmd(g))
	root.AddCommand(registrycmd.NewCmd(g))
	root.AddCommand(authcmd.NewCmd(g))
	root.AddCommand(newVersionCmd(g))
	root.AddCommand(servecmd.NewCmd(g))
	root.AddCommand(newDemoCmd(g), newDemoServerCmd(g))
	root.AddCommand(completion.NewCmd())
	clinames.EnableSuggestions(root)
	completion.AddTo(root, g)
	return root
}

// isFlagError recognises pflag's parse errors that reach us without the
// FlagErrorFunc (flags of a parent command parsed while traversing to the
// subcommand): pflag has no error types, only these message forms.
func isFlagError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown flag: ", "unknown shorthand flag: ", "invalid argument ", "flag needs an argument: ", "bad flag syntax: "} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}
