// Package cli is mcpdeck's command-line interface (cobra): the config
// commands, the engine-backed commands and the entry to the TUI.
package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/oauth"
)

// Exit codes of the mcpdeck process.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
	// exitInterrupted is the shell's convention for a command ended by
	// Ctrl-C (128 + SIGINT), so scripts can tell "stopped" from "failed".
	exitInterrupted = 130
)

// globalOpts carries the persistent flags and the process's I/O to every
// command. It is the only thing the command files share: every command's
// constructor (the config commands under mcp_*.go, the commands that connect
// to servers under engine_*.go, the TUI and demo in tui*.go and demo.go)
// receives the same *globalOpts.
type globalOpts struct {
	// mcpConfig holds the --mcp-config values in order: file paths or inline
	// JSON, passed to the model as LoadOptions.Dynamic.
	mcpConfig []string
	// elicit is the --elicit policy for headless runs: "" (none given),
	// "accept-defaults", "decline" or "cancel". Validated by flag parsing.
	elicit string
	// json asks listings and get for machine-readable JSON on stdout.
	json bool

	stdin  io.Reader
	stdout io.Writer // command output, sanitized (see terminalWriter)
	stderr io.Writer // errors, warnings and notes, sanitized
	// rawStdout is the process's stdout itself, for the TUI (which draws
	// sanitized frames with colours of its own) and demo-server (JSON-RPC).
	rawStdout, rawStderr io.Writer

	// newLoadOptions builds the model's LoadOptions for the given --mcp-config
	// values; it is config.DefaultLoadOptions (working directory, HOME, XDG
	// config dir, MCPDECK_MANAGED_DIR). Use g.loadOptions() to call it.
	newLoadOptions func(dynamic []string) (config.LoadOptions, error)

	// sampling is --sampling: what a command does with a server's sampling
	// request when no command replies ("decline", the only way without a
	// person); samplingCommand is --sampling-command, which replies.
	sampling, samplingCommand string

	// logLevel is --log-level: servers' log messages at or above it go
	// to stderr ("off": none).
	logLevel string

	// tracePath is --trace FILE; trace the file, once an engine opened it.
	tracePath string
	trace     *traceFile

	// stdinBuf buffers stdin once, so that several reads (one secret after
	// another) do not lose what an earlier reader buffered.
	stdinBuf *bufio.Reader

	// secrets is mcpdeck's secret store (${secret:NAME}), made on first use
	// for the config dir it was made for.
	secrets *oauth.SecretStore
	// runSecrets are the secret sets of the servers this run loaded (load).
	runSecrets []string
}

// secretStore is the store of ${secret:NAME} values for configDir: the
// keychain, or credentials.json there when there is none.
func (g *globalOpts) secretStore(configDir string) *oauth.SecretStore {
	if g.secrets == nil {
		g.secrets = oauth.NewSecretStore(oauth.SecretStoreOptions{ConfigDir: configDir})
	}
	return g.secrets
}

// input returns stdin behind one shared buffer.
func (g *globalOpts) input() *bufio.Reader {
	if g.stdinBuf == nil {
		g.stdinBuf = bufio.NewReader(g.stdin)
	}
	return g.stdinBuf
}

// loadOptions returns the LoadOptions every command reads config with. A
// ${secret:NAME} stays as written (config.SkipSecrets): a command that only
// shows or edits definitions, or completes a word at each TAB, has no use
// for the values and must not make the keychain answer (or prompt) for
// every server. Commands that run servers use secretLoadOptions.
func (g *globalOpts) loadOptions() (config.LoadOptions, error) {
	o, err := g.newLoadOptions(g.mcpConfig)
	if err == nil && o.LookupSecret == nil {
		o.LookupSecret = config.SkipSecrets
	}
	return o, err
}

// secretLoadOptions is loadOptions for commands that run servers: a
// ${secret:NAME} of a user or local definition is read from the secret
// store (each read bounded by the keychain's timeout); with names, only
// those servers' secrets are read.
func (g *globalOpts) secretLoadOptions(names ...string) (config.LoadOptions, error) {
	o, err := g.newLoadOptions(g.mcpConfig)
	if err == nil && o.LookupSecret == nil {
		o.LookupSecret = g.secretStore(o.ConfigDir).Lookup(context.Background())
	}
	if err == nil && len(names) > 0 {
		o.LookupSecret = secretsOnlyOf(o.LookupSecret, names)
	}
	return o, err
}

// secretsOnlyOf is read for the secrets of the servers named, and
// config.SkipSecrets for every other server's.
func secretsOnlyOf(read func(config.SecretRef) (string, error), names []string) func(config.SecretRef) (string, error) {
	return func(ref config.SecretRef) (string, error) {
		if !slices.Contains(names, ref.Server) {
			return config.SkipSecrets(ref)
		}
		return read(ref)
	}
}

// Elicitation policies accepted by --elicit.
const (
	elicitAcceptDefaults = "accept-defaults"
	elicitDecline        = "decline"
	elicitCancel         = "cancel"
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
	stdout, stderr := &terminalWriter{w: rawStdout}, &terminalWriter{w: rawStderr}
	g := &globalOpts{
		stdin: stdin, stdout: stdout, stderr: stderr, rawStdout: rawStdout, rawStderr: rawStderr,
		newLoadOptions: config.DefaultLoadOptions,
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
	if isFlagError(err) {
		ue = &usageError{msg: err.Error()}
	}
	if ue != nil || errors.As(err, &ue) {
		reportError(stderr, g.json, ue.msg, cmd.CommandPath())
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
		return &usageError{msg: err.Error()}
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

// usageError is a mistake in how a command was called: exit code 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usagef returns a usage error (exit code 2).
func usagef(format string, a ...any) error { return &usageError{msg: fmt.Sprintf(format, a...)} }

// silentError fails the command (exit 1) without another message: the
// command already explained the failure on stderr.
type silentError struct{}

func (silentError) Error() string { return "failed" }

// noArgs rejects positional arguments, naming an unknown subcommand.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s, ok := bestSuggestion(cmd, args[0]); ok {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return &usageError{msg: msg}
}

// exactArgs requires n positional arguments, described by what ("NAME").
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s takes %s, got %d argument%s", strings.TrimPrefix(cmd.CommandPath(), "mcpdeck "), what, len(args), plural(len(args)))
		}
		return nil
	}
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

// sentence renders an error as one sentence: the sentinel prefixes of model
// errors ("invalid: ", "not found: ") are dropped, the first letter kept as
// written (file paths and names), and a full stop added.
func sentence(err error) string {
	msg := err.Error()
	for _, s := range []error{model.ErrInvalid, model.ErrNotFound, model.ErrExists} {
		msg = strings.TrimPrefix(msg, s.Error()+": ")
	}
	msg = strings.Join(strings.Fields(msg), " ")
	if !strings.HasSuffix(msg, ".") && !strings.HasSuffix(msg, "?") {
		msg += "."
	}
	return msg
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
