// Package cli is mcpdeck's command-line interface (cobra): the config
// commands, the engine-backed commands and the entry to the TUI.
package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
)

// Execute runs the command line (without the program name) and returns the
// process exit code: 0 success, 1 failure, 2 usage error, 130 interrupted.
func Execute(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return run(ctx, args, os.Stdin, os.Stdout, os.Stderr)
}

// run is Execute with explicit I/O. Commands print through terminalWriter,
// so no outside text reaches the terminal unsanitized.
func run(ctx context.Context, args []string, stdin io.Reader, rawStdout, rawStderr io.Writer) int {
	stdout, stderr := newTerminalWriter(rawStdout), newTerminalWriter(rawStderr)
	g := &globalOpts{
		stdin: stdin, stdout: stdout, stderr: stderr, rawStdout: rawStdout, rawStderr: rawStderr,
		newLoadOptions: model.DefaultLoadOptions,
	}
	root := newRootCmd(g)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	g.closeTrace()
	if err == nil {
		return exitOK
	}
	var ue *usageError
	if isFlagError(err) || errors.As(err, &ue) {
		msg := err.Error()
		if ue != nil {
			msg = ue.Error()
		}
		reportError(stderr, g.json, msg, cmd.CommandPath())
		return exitUsage
	}
	var se silentError
	if !errors.As(err, &se) {
		reportError(stderr, g.json, g.runMask().Mask(sentence(err)), "")
	}
	if ctx.Err() != nil { // Ctrl-C: the command stopped because it was asked to
		return exitInterrupted
	}
	return exitFailure
}

// newRootCmd builds the whole command tree around one globalOpts. Every
// command is built complete by its own constructor, with its dependencies
// passed in; what it does (Run, Args, help text) is never changed afterwards
// (tree_test.go checks this). The two passes at the end only add typo
// suggestions and shell completion to the finished tree.
func newRootCmd(g *globalOpts) *cobra.Command {
	root := &cobra.Command{
		Use:   "mcpdeck",
		Short: "A terminal connection manager for MCP servers",
		Long: "mcpdeck finds every MCP server you have configured, asks before starting servers a\n" +
			"repository brought along, connects to them and lets you browse and call their tools.\n\n" +
			"Without a command it opens the interactive TUI.",
		Args:          noArgs,
		Version:       buildVersion(),
		SilenceUsage:  true,
		SilenceErrors: true,
		// Flags may come before or after the subcommand.
		TraverseChildren: true,
		PersistentPreRun: func(cmd *cobra.Command, _ []string) { tellUntrustedOnce(g, cmd) },
		RunE:             func(cmd *cobra.Command, _ []string) error { return runDefaultTUI(cmd, g) },
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return usagef("%s", err)
	})
	pf := root.PersistentFlags()
	pf.StringArrayVar(&g.mcpConfig, "mcp-config", nil,
		"servers for this run only, from `FILE_OR_JSON`: a config file path or inline JSON (repeatable)")
	pf.Var(newEnumFlag(&g.elicit, elicitAcceptDefaults, elicitDecline, elicitCancel), "elicit",
		"answer server elicitation requests without a TUI: accept-defaults, decline or cancel")
	g.sampling = "decline"
	pf.Var(newEnumFlag(&g.sampling, "decline"), "sampling",
		"answer servers' sampling requests that no command replies to: decline (the CLI has no one to ask)")
	pf.StringVar(&g.samplingCommand, "sampling-command", "",
		"reply to servers' sampling requests with `CMD` (run by the shell; the request as JSON on stdin, the reply text on stdout)")
	pf.BoolVar(&g.json, "json", false, "print machine-readable JSON")
	pf.StringVar(&g.tracePath, "trace", "",
		"write every JSON-RPC message with every server to `FILE` as JSON lines (created 0600; secrets masked)")
	g.logLevel = "warning"
	pf.Var(newEnumFlag(&g.logLevel, "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency", "off"), "log-level",
		"print servers' log messages at or above this level on stderr while a command runs")

	root.AddCommand(newMCPCmd(g))
	root.AddCommand(newEngBrowseCmds(g)...) // tools, resources, prompts
	root.AddCommand(newEngCallCmds(g)...)   // call, read, prompt
	root.AddCommand(newBatchCmd(g))
	root.AddCommand(newEngSkillsCmds(g)...)
	root.AddCommand(newLogsCmd(g))
	root.AddCommand(newDoctorCmd(g))
	root.AddCommand(newContextCmd(g))
	root.AddCommand(newRegistryCmd(g))
	root.AddCommand(newAuthCmd(g))
	root.AddCommand(newServeCmd(g))
	root.AddCommand(newDemoCmd(g), newDemoServerCmd(g))
	root.AddCommand(newCompletionCmd())
	enableSuggestions(root)
	addCompletions(root, g)
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
