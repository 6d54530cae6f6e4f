package clicore

import (
	"bufio"
	"context"
	"io"
	"slices"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/oauth"
)

// Globals carries the persistent flags and the process's I/O to every
// command. It is the only state the command packages share: every command's
// constructor (the config commands in mcpcmd, the commands that connect to
// servers in engcmd, batch and doctor, the TUI and demo in the cli package)
// receives the same *Globals.
type Globals struct {
	// MCPConfig holds the --mcp-config values in order: file paths or inline
	// JSON, passed to the model as LoadOptions.Dynamic.
	MCPConfig []string
	// Elicit is the --elicit policy for headless runs: "" (none given),
	// "accept-defaults", "decline" or "cancel". Validated by flag parsing.
	Elicit string
	// JSON asks listings and get for machine-readable JSON on stdout.
	JSON bool

	Stdin  io.Reader
	Stdout io.Writer // command output, sanitized (see cliout.NewTerminalWriter)
	Stderr io.Writer // errors, warnings and notes, sanitized
	// RawStdout is the process's stdout itself, for the TUI (which draws
	// sanitized frames with colours of its own) and demo-server (JSON-RPC).
	RawStdout, RawStderr io.Writer

	// NewLoadOptions builds the model's LoadOptions for the given --mcp-config
	// values; it is config.DefaultLoadOptions (working directory, HOME, XDG
	// config dir, MCPDECK_MANAGED_DIR). Use g.LoadOptions() to call it.
	NewLoadOptions func(dynamic []string) (config.LoadOptions, error)

	// Sampling is --sampling: what a command does with a server's sampling
	// request when no command replies ("decline", the only way without a
	// person); SamplingCommand is --sampling-command, which replies.
	Sampling, SamplingCommand string

	// LogLevel is --log-level: servers' log messages at or above it go
	// to stderr ("off": none).
	LogLevel string

	// TracePath is --trace FILE; trace the file, once an engine opened it.
	TracePath string
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

// SecretStore is the store of ${secret:NAME} values for configDir: the
// keychain, or credentials.json there when there is none.
func (g *Globals) SecretStore(configDir string) *oauth.SecretStore {
	if g.secrets == nil {
		g.secrets = oauth.NewSecretStore(oauth.SecretStoreOptions{ConfigDir: configDir})
	}
	return g.secrets
}

// Input returns stdin behind one shared buffer.
func (g *Globals) Input() *bufio.Reader {
	if g.stdinBuf == nil {
		g.stdinBuf = bufio.NewReader(g.Stdin)
	}
	return g.stdinBuf
}

// LoadOptions returns the LoadOptions every command reads config with. A
// ${secret:NAME} stays as written (config.SkipSecrets): a command that only
// shows or edits definitions, or completes a word at each TAB, has no use
// for the values and must not make the keychain answer (or prompt) for
// every server. Commands that run servers use SecretLoadOptions.
func (g *Globals) LoadOptions() (config.LoadOptions, error) {
	o, err := g.NewLoadOptions(g.MCPConfig)
	if err == nil && o.LookupSecret == nil {
		o.LookupSecret = config.SkipSecrets
	}
	return o, err
}

// SecretLoadOptions is LoadOptions for commands that run servers: a
// ${secret:NAME} of a user or local definition is read from the secret
// store (each read bounded by the keychain's timeout); with names, only
// those servers' secrets are read.
func (g *Globals) SecretLoadOptions(names ...string) (config.LoadOptions, error) {
	o, err := g.NewLoadOptions(g.MCPConfig)
	if err == nil && o.LookupSecret == nil {
		o.LookupSecret = g.SecretStore(o.ConfigDir).Lookup(context.Background())
	}
	if err == nil && len(names) > 0 {
		o.LookupSecret = SecretsOnlyOf(o.LookupSecret, names)
	}
	return o, err
}

// SecretsOnlyOf is read for the secrets of the servers named, and
// config.SkipSecrets for every other server's.
func SecretsOnlyOf(read func(config.SecretRef) (string, error), names []string) func(config.SecretRef) (string, error) {
	return func(ref config.SecretRef) (string, error) {
		if !slices.Contains(names, ref.Server) {
			return config.SkipSecrets(ref)
		}
		return read(ref)
	}
}

// Elicitation policies accepted by --elicit.
const (
	ElicitAcceptDefaults = "accept-defaults"
	ElicitDecline        = "decline"
	ElicitCancel         = "cancel"
)
