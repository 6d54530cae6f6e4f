package clicore

import (
	"bufio"
	"context"
	"io"
	"slices"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/oauth"
)

// globalOpts carries the persistent flags and the process's I/O to every
// command. It is the only thing the command files share: every command's
// constructor (the config commands under mcp_*.go, the commands that connect
// to servers under engine_*.go, the TUI and demo in tui*.go and demo.go)
// receives the same *globalOpts.
type Globals struct {
	// mcpConfig holds the --mcp-config values in order: file paths or inline
	// JSON, passed to the model as LoadOptions.Dynamic.
	MCPConfig []string
	// elicit is the --elicit policy for headless runs: "" (none given),
	// "accept-defaults", "decline" or "cancel". Validated by flag parsing.
	Elicit string
	// json asks listings and get for machine-readable JSON on stdout.
	JSON bool

	Stdin  io.Reader
	Stdout io.Writer // command output, sanitized (see terminalWriter)
	Stderr io.Writer // errors, warnings and notes, sanitized
	// rawStdout is the process's stdout itself, for the TUI (which draws
	// sanitized frames with colours of its own) and demo-server (JSON-RPC).
	RawStdout, RawStderr io.Writer

	// newLoadOptions builds the model's LoadOptions for the given --mcp-config
	// values; it is model.DefaultLoadOptions (working directory, HOME, XDG
	// config dir, MCPDECK_MANAGED_DIR). Use g.loadOptions() to call it.
	NewLoadOptions func(dynamic []string) (model.LoadOptions, error)

	// sampling is --sampling: what a command does with a server's sampling
	// request when no command replies ("decline", the only way without a
	// person); samplingCommand is --sampling-command, which replies.
	Sampling, SamplingCommand string

	// logLevel is --log-level: servers' log messages at or above it go
	// to stderr ("off": none).
	LogLevel string

	// tracePath is --trace FILE; trace the file, once an engine opened it.
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

// secretStore is the store of ${secret:NAME} values for configDir: the
// keychain, or credentials.json there when there is none.
func (g *Globals) SecretStore(configDir string) *oauth.SecretStore {
	if g.secrets == nil {
		g.secrets = oauth.NewSecretStore(oauth.SecretStoreOptions{ConfigDir: configDir})
	}
	return g.secrets
}

// input returns stdin behind one shared buffer.
func (g *Globals) Input() *bufio.Reader {
	if g.stdinBuf == nil {
		g.stdinBuf = bufio.NewReader(g.Stdin)
	}
	return g.stdinBuf
}

// loadOptions returns the LoadOptions every command reads config with. A
// ${secret:NAME} stays as written (model.SkipSecrets): a command that only
// shows or edits definitions, or completes a word at each TAB, has no use
// for the values and must not make the keychain answer (or prompt) for
// every server. Commands that run servers use secretLoadOptions.
func (g *Globals) LoadOptions() (model.LoadOptions, error) {
	o, err := g.NewLoadOptions(g.MCPConfig)
	if err == nil && o.LookupSecret == nil {
		o.LookupSecret = model.SkipSecrets
	}
	return o, err
}

// secretLoadOptions is loadOptions for commands that run servers: a
// ${secret:NAME} of a user or local definition is read from the secret
// store (each read bounded by the keychain's timeout); with names, only
// those servers' secrets are read.
func (g *Globals) SecretLoadOptions(names ...string) (model.LoadOptions, error) {
	o, err := g.NewLoadOptions(g.MCPConfig)
	if err == nil && o.LookupSecret == nil {
		o.LookupSecret = g.SecretStore(o.ConfigDir).Lookup(context.Background())
	}
	if err == nil && len(names) > 0 {
		o.LookupSecret = secretsOnlyOf(o.LookupSecret, names)
	}
	return o, err
}

// secretsOnlyOf is read for the secrets of the servers named, and
// model.SkipSecrets for every other server's.
func secretsOnlyOf(read func(model.SecretRef) (string, error), names []string) func(model.SecretRef) (string, error) {
	return func(ref model.SecretRef) (string, error) {
		if !slices.Contains(names, ref.Server) {
			return model.SkipSecrets(ref)
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
