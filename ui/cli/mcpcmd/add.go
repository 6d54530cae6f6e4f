package mcpcmd

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/imports"
	"github.com/mcpdeck/mcpdeck/ui/cli/authcmd"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
)

// addFlags are the options of `mcp add`.
type addFlags struct {
	transport    string
	env          []string
	headers      []string
	clientID     string
	clientSecret bool
	callbackPort int
	// --registry NAME[@VERSION] installs from the MCP Registry
	// (add_registry.go), with --arg values and --yes.
	registry string
	args     []string
	yes      bool
	// sandbox is --sandbox[=PROFILE]: "" for none.
	sandbox string
}

func newMCPAddCmd(g *clicore.Globals) *cobra.Command {
	var f addFlags
	cmd := &cobra.Command{
		Use:   "add NAME [flags] -- COMMAND [ARGS...]\n  mcpdeck mcp add NAME [flags] URL\n  mcpdeck mcp add [NAME] --registry SERVER[@VERSION] [flags]",
		Short: "Add a stdio server (command after --), a remote server (URL) or a server from the MCP Registry",
		Example: "  mcpdeck mcp add github -e GITHUB_TOKEN='${GITHUB_TOKEN}' \\\n" +
			"    -- npx -y @modelcontextprotocol/server-github\n" +
			"  mcpdeck mcp add -s user my-api https://example.com/mcp \\\n" +
			"    -H 'Authorization: Bearer ${API_TOKEN}'\n" +
			"  # sse, detected from the URL\n" +
			"  mcpdeck mcp add events https://example.com/mcp/sse\n" +
			"  # asks for its token, which is kept in your keychain\n" +
			"  mcpdeck mcp add -s user --registry io.github.github/github-mcp-server",
		Args: cobra.ArbitraryArgs,
	}
	// `mcp add x npx -y pkg` (forgot the --) fails on "-y": say what to do.
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		if strings.HasPrefix(err.Error(), "unknown ") {
			return clierr.Usagef("%s; if it belongs to the server's command, put the command after --", err)
		}
		return clierr.Usagef("%s", err)
	})
	scope := cliargs.AddScopeFlag(cmd, model.ScopeLocal, "where to save it: local (this project, private), user (all projects) or project (.mcp.json, shared)")
	fl := cmd.Flags()
	fl.VarP(cliargs.NewEnumFlag(&f.transport, addable()...), "transport", "t",
		"transport; by default stdio for a command, and for a URL: ws for ws://, sse when the path has /sse, else http")
	fl.StringArrayVarP(&f.env, "env", "e", nil, "environment variable for a stdio server, `KEY=VALUE` (repeatable)")
	fl.StringArrayVarP(&f.headers, "header", "H", nil, "HTTP header for a remote server, `'Key: Value'` (repeatable)")
	fl.StringVar(&f.clientID, "client-id", "", "OAuth client ID (sse/http servers that do not support dynamic registration)")
	fl.IntVar(&f.callbackPort, "callback-port", 0, "fixed port for the OAuth redirect on 127.0.0.1")
	fl.BoolVar(&f.clientSecret, "client-secret", false,
		"store a pre-registered client's OAuth secret (from MCPDECK_CLIENT_SECRET or a hidden prompt) in the keychain, never in config")
	fl.StringVar(&f.registry, "registry", "", "install `SERVER[@VERSION]` from the MCP Registry (MCPDECK_REGISTRY_URL): its remote, else its package, pinned; -t stdio takes the package, -t http/sse a remote")
	fl.StringArrayVar(&f.args, "arg", nil, "with --registry: a value for an argument or {variable} the server asks for, `KEY=VALUE` (repeatable)")
	fl.BoolVar(&f.yes, "yes", false, "with --registry: do not ask to confirm at a terminal")
	fl.StringVar(&f.sandbox, "sandbox", "", "run the stdio server in a sandbox with `PROFILE` ("+strings.Join(model.SandboxProfiles(), " or ")+"; --sandbox alone: default): "+
		"it reads the system, its own package and the project, writes a private /tmp, has no network; "+
		"--registry offers it to npm and PyPI packages, --sandbox=none declines")
	fl.Lookup("sandbox").NoOptDefVal = model.SandboxProfileDefault
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if f.registry != "" {
			return runRegistryAdd(cmd, g, args, f, scope())
		}
		if len(f.args) > 0 || f.yes {
			return clierr.Usagef("--arg and --yes go with --registry")
		}
		name, cfg, err := addConfig(cmd, args, f)
		if err != nil {
			return err
		}
		if err := checkNewName(name); err != nil {
			return err
		}
		opts, err := g.LoadOptions()
		if err != nil {
			return err
		}
		var secret string
		if f.clientSecret { // read first: a failed prompt must not leave a half-added server
			if secret, err = authcmd.ReadClientSecret(g); err != nil {
				return err
			}
		}
		path, err := config.AddServer(opts, scope(), name, cfg)
		if err != nil {
			return err
		}
		warnLiteralSecrets(g.Stderr, scope(), name, cfg)
		reportAdded(g, opts, scope(), name, cfg, path)
		if f.clientSecret {
			return authcmd.StoreClientSecret(g, opts, name, secret)
		}
		return nil
	}
	return cmd
}

// addConfig turns the arguments of `mcp add` into a name and a definition,
// or a usage error saying what is wrong with the command line.
func addConfig(cmd *cobra.Command, args []string, f addFlags) (string, model.ServerConfig, error) {
	var cfg model.ServerConfig
	dash := cmd.ArgsLenAtDash()
	switch {
	case len(args) == 0 || dash == 0:
		return "", cfg, clierr.Usagef("mcp add needs a server name")
	case dash > 1:
		return "", cfg, clierr.Usagef("mcp add takes only the server name before --, got %q too", args[1])
	case dash == 1 && len(args) == 1:
		return "", cfg, clierr.Usagef("nothing after --: give the command that starts the server")
	case len(args) == 1:
		return "", cfg, clierr.Usagef("mcp add needs a URL, or the server's command after --")
	}
	name := args[0]
	if dash == 1 && len(args) == 2 && strings.Contains(args[1], "://") {
		return "", cfg, clierr.Usagef("%q after -- would be run as a command; give a URL without --", args[1])
	}
	if dash < 0 && len(args) > 2 && strings.Contains(args[1], "://") {
		return "", cfg, clierr.Usagef("a URL takes no further arguments, got %q", args[2])
	}
	remote := dash < 0 && len(args) == 2 && strings.Contains(args[1], "://")
	if !remote {
		if f.transport != "" && !model.Transport(f.transport).Info().Program {
			return "", cfg, clierr.Usagef("-t %s needs a URL, not a command", f.transport)
		}
		if len(f.headers) > 0 || f.clientID != "" || f.callbackPort != 0 || f.clientSecret {
			return "", cfg, clierr.Usagef("-H, --client-id, --callback-port and --client-secret are for remote servers (give a URL)")
		}
		env, err := parseEnv(f.env)
		if err != nil {
			return "", cfg, err
		}
		box, err := sandboxFlag(f.sandbox)
		if err != nil {
			return "", cfg, err
		}
		cfg = model.ServerConfig{Type: model.TransportStdio, Command: args[1], Args: args[2:], Env: env, Sandbox: box}
		return name, cfg, nil
	}
	if f.sandbox != "" {
		return "", cfg, clierr.Usagef("--sandbox is for stdio servers (a command after --): a remote server runs elsewhere")
	}
	cfg, err := remoteConfig(args[1], f)
	return name, cfg, err
}

// sandboxFlag is the sandbox --sandbox[=PROFILE] asks for: nil without
// the flag, else that profile with nothing added.
func sandboxFlag(profile string) (*model.Sandbox, error) {
	if profile == "" || profile == "none" {
		return nil, nil
	}
	if !slices.Contains(model.SandboxProfiles(), profile) {
		return nil, clierr.Usagef("--sandbox=%s: unknown profile (use %s)", profile, strings.Join(model.SandboxProfiles(), " or "))
	}
	return &model.Sandbox{Profile: profile}, nil
}

// remoteConfig builds an sse/http/ws definition from a URL and the flags.
func remoteConfig(url string, f addFlags) (model.ServerConfig, error) {
	var cfg model.ServerConfig
	if model.Transport(f.transport).Info().Program {
		return cfg, clierr.Usagef("-t %s needs the command after --, not a URL", f.transport)
	}
	if len(f.env) > 0 {
		return cfg, clierr.Usagef("-e sets environment variables of stdio servers; send values to a remote server with -H")
	}
	t := model.Transport(f.transport)
	if t == "" {
		detected, err := imports.DetectTransport(url)
		if err != nil {
			return cfg, clierr.Usagef("%s", clierr.Sentence(err))
		}
		t = detected
	} else if err := imports.CheckURL(t, url); err != nil {
		return cfg, clierr.Usagef("%s", clierr.Sentence(err))
	}
	headers, err := parseHeaders(f.headers)
	if err != nil {
		return cfg, err
	}
	cfg = model.ServerConfig{Type: t, URL: url, Headers: headers}
	if f.clientID != "" || f.callbackPort != 0 || f.clientSecret {
		if !t.Info().OAuth {
			return cfg, clierr.Usagef("--client-id, --callback-port and --client-secret do not apply to a %s server: %s", t, model.ErrNoSignIn)
		}
		if f.callbackPort < 0 || f.callbackPort > 65535 {
			return cfg, clierr.Usagef("--callback-port must be between 1 and 65535, got %d", f.callbackPort)
		}
		if f.clientID != "" || f.callbackPort != 0 {
			cfg.OAuth = &model.OAuthConfig{ClientID: f.clientID, CallbackPort: f.callbackPort}
		}
	}
	return cfg, nil
}

// addable names the transports -t offers, in the table's order.
func addable() []string {
	var out []string
	for _, t := range model.Transports() {
		if t.Addable {
			out = append(out, string(t.Name))
		}
	}
	return out
}

// parseEnv reads -e KEY=VALUE values.
func parseEnv(vals []string) (map[string]string, error) { return parseKeyValues("-e", vals) }

// parseKeyValues reads the KEY=VALUE values of flag; nil when none.
func parseKeyValues(flag string, vals []string) (map[string]string, error) {
	if len(vals) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(vals))
	for _, v := range vals {
		k, val, ok := strings.Cut(v, "=")
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return nil, clierr.Usagef("%s %q: expected KEY=VALUE", flag, v)
		}
		out[k] = val
	}
	return out, nil
}

// parseHeaders reads -H 'Key: Value' values.
func parseHeaders(vals []string) (map[string]string, error) {
	if len(vals) == 0 {
		return nil, nil
	}
	h := make(map[string]string, len(vals))
	for _, v := range vals {
		k, val, ok := strings.Cut(v, ":")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return nil, clierr.Usagef("-H %q: expected 'Key: Value'", v)
		}
		h[k] = strings.TrimSpace(val)
	}
	return h, nil
}

// checkNewName is what `mcp add` and `mcp add-json` accept as a server name:
// the model's rules plus the reference tool's [A-Za-z0-9_-], so a name typed
// here needs no quoting later and is its own tool prefix mcp__NAME__ (names
// in files written by hand or imported are normalized instead).
func checkNewName(name string) error {
	if err := model.CheckServerName(name); err != nil {
		return clierr.Usagef("%s", clierr.Sentence(err))
	}
	if model.NormalizeName(name) != name {
		return clierr.Usagef("server name %q may contain only letters, digits, _ and -", name)
	}
	return nil
}
