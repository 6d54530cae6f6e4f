// Package servecmd is `mcpdeck serve`: every server mcpdeck manages,
// offered to an agent as one MCP server (the gateway in ui/serve), on stdio
// or streamable HTTP (loopback unless --listen).
package servecmd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
	"github.com/mcpdeck/mcpdeck/ui/serve"
)

// serveFlags are `mcpdeck serve`'s own flags.
type serveFlags struct {
	http    string   // --http HOST:PORT; "" serves stdio
	listen  bool     // --listen: allow a non-loopback --http address
	servers []string // --servers
	tools   []string // --tools
	ide     []string // --ide-tools
	prefix  string   // --prefix auto|always|never
	wait    time.Duration
	waitSet bool // --wait was given (0 then means no wait at all)
}

// NewCmd is `mcpdeck serve`: every server mcpdeck manages, offered to
// an agent as one MCP server, on stdio or streamable HTTP.
func NewCmd(g *clicore.Globals) *cobra.Command {
	var sf serveFlags
	cmd := &cobra.Command{
		Use:   "serve [--http HOST:PORT] [--servers A,B] [--tools PATTERN] [--prefix auto|always|never] [--wait DURATION]",
		Short: "Offer every server mcpdeck manages to an agent as one MCP server",
		Long: "Speaks MCP on stdio (or, with --http, streamable HTTP at /mcp) and offers the tools, prompts\n" +
			"and resources of every server that may run (approved, enabled, allowed by policy). Calls go\n" +
			"through mcpdeck: its approvals, policy, permissions, sign-in and reconnects. --servers and\n" +
			"--tools narrow what one agent sees.\n\n" +
			"--prefix names tools and prompts: auto (the default) SERVER__NAME when more than one server\n" +
			"is offered, the server's own names when one is; always SERVER__NAME; never the servers' own\n" +
			"names, refusing to start when two servers offer one name. serve says which at start.\n\n" +
			"An agent's first list is complete: servers serve saw before are answered for at once from\n" +
			"their last lists (kept in the cache directory, list_changed follows when they differ), and\n" +
			"the first answer waits for the others until each connects or fails, up to its connect\n" +
			"timeout (MCP_TIMEOUT) or --wait. A call to a server still connecting waits for it as long.\n\n" +
			"--http listens on a loopback address only (another needs --listen) and requires its token,\n" +
			"as Authorization: Bearer TOKEN on /mcp or in the capability URL /mcp/TOKEN (for agents that\n" +
			"take only a URL): the token is $MCPDECK_SERVE_TOKEN, or one mcpdeck makes, prints once (both\n" +
			"forms) and keeps in its config directory (serve-token, 0600). GET /health needs no token.",
		Args: cliargs.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			sf.waitSet = cmd.Flags().Changed("wait")
			return runServe(cmd.Context(), g, sf)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&sf.http, "http", "", "serve streamable HTTP on `HOST:PORT` (path /mcp) instead of stdio")
	fl.BoolVar(&sf.listen, "listen", false, "allow --http to bind an address other machines can reach")
	fl.StringSliceVar(&sf.servers, "servers", nil, "offer only these servers (comma-separated `NAMES`)")
	fl.StringSliceVar(&sf.tools, "tools", nil, "offer only tools whose SERVER__TOOL (or shown) name matches a glob `PATTERN` (comma-separated or repeated)")
	fl.StringSliceVar(&sf.ide, "ide-tools", nil, "also offer these `TOOLS` of editors' IDE servers (without it: getDiagnostics and executeCode only)")
	fl.DurationVar(&sf.wait, "wait", 0, "wait at most `DURATION` for a server to come (first list, calls); 0 waits for none (default: the connect timeout)")
	sf.prefix = string(serve.PrefixAuto)
	fl.Var(cliargs.NewEnumFlag(&sf.prefix, string(serve.PrefixAuto), string(serve.PrefixAlways), string(serve.PrefixNever)), "prefix",
		"name tools and prompts SERVER__NAME: auto (when more than one server is offered), always or never")
	return cmd
}

// runServe builds the engine the other commands use (headless answers to
// elicitation and sampling as the fallback), watching config files so an
// approval or edit elsewhere reaches the agent, and serves it.
func runServe(ctx context.Context, g *clicore.Globals, sf serveFlags) error {
	// Ctrl-C ends serve with 130; SIGTERM, an agent stopping the server it
	// started, with 0.
	interrupted := func() error {
		if clierr.Terminated(ctx) {
			return nil
		}
		return ctx.Err()
	}
	prefix, err := serve.ParsePrefix(sf.prefix)
	if err != nil {
		return clierr.Usagef("%v", err)
	}
	wait, err := startupWait(sf)
	if err != nil {
		return err
	}
	var hopts serve.HTTPOptions
	if strings.HasPrefix(sf.http, ":") && !sf.listen {
		// as other servers take it, but on loopback only: --listen is what
		// reaches other machines
		sf.http = "127.0.0.1" + sf.http
		fmt.Fprintf(g.Stderr, "mcpdeck serve: --http %s is taken as %s (this machine only; --listen binds every address)\n", strings.TrimPrefix(sf.http, "127.0.0.1"), sf.http)
	}
	if sf.http != "" {
		host, err := serve.CheckAddr(sf.http, sf.listen)
		if err != nil {
			return clierr.Usagef("%v", err)
		}
		hopts = serve.HTTPOptions{Remote: sf.listen, Host: host}
	} else if sf.listen {
		return clierr.Usagef("--listen only makes sense with --http")
	}
	eo, err := clisession.NewEngineFlags(g).EngineOptions()
	if err != nil {
		return err
	}
	eo.Watch = true
	if len(sf.servers) > 0 {
		clisession.OnlyServers(&eo, sf.servers)
	}
	var ln net.Listener
	var access string  // how an agent presents the token, said once listening
	if sf.http != "" { // listen first: a port in use fails before any server starts
		ln, err = (&net.ListenConfig{}).Listen(ctx, "tcp", sf.http)
		if err != nil {
			return fmt.Errorf("listening on %s: %w", sf.http, err)
		}
		defer ln.Close()
		tok, path, created, err := serve.Token(eo.Load.LookupEnv, eo.Load.ConfigDir)
		if err != nil {
			return err
		}
		hopts.Token = tok
		hopts.Debug = serve.DebugEnabled(eo.Load.LookupEnv)
		if created {
			fmt.Fprintf(g.Stderr, "mcpdeck serve: made a token (shown only now; kept in %s): %s\n", path, tok)
		}
		access = accessNote(ln.Addr().String(), tok, path, created)
	}
	gw, err := serve.New(ctx, eo, serve.Options{
		Servers: sf.servers, Tools: sf.tools, IDETools: sf.ide, Prefix: prefix, Version: clicore.ModuleVersion(), Log: g.Stderr,
		AnswersElicitation: g.Elicit != "", StartupWait: wait,
	})
	if err != nil {
		var unknown *serve.UnknownServerError
		if errors.As(err, &unknown) { // in the words every command uses, with what a typo meant
			return clierr.Usagef("%v", clisession.UnknownServer(unknown.Name, unknown.Configured))
		}
		if errors.Is(err, path.ErrBadPattern) {
			return clierr.Usagef("%v", err)
		}
		return err
	}
	defer gw.Close()
	if sf.http == "" {
		err = gw.ServeStdio(ctx, g.Stdin, g.RawStdout)
	} else {
		fmt.Fprintf(g.Stderr, "mcpdeck serve: listening on http://%s/mcp\n", ln.Addr())
		fmt.Fprintln(g.Stderr, access)
		err = gw.ServeHTTP(ctx, ln, hopts)
	}
	if err == nil && interrupted() != nil {
		return clierr.SilentError{} // Ctrl-C: exit 130, nothing to explain
	}
	return err
}

// startupWait is serve.Options.StartupWait for --wait: unset, the
// connect timeout (0); --wait 0, no wait (negative); a negative
// duration is a usage error.
func startupWait(sf serveFlags) (time.Duration, error) {
	switch {
	case !sf.waitSet:
		return 0, nil
	case sf.wait < 0:
		return 0, clierr.Usagef("--wait takes a duration of 0 or more, not %s", sf.wait)
	case sf.wait == 0:
		return -1, nil
	}
	return sf.wait, nil
}

// accessNote says the two ways an agent presents the token: the header
// on /mcp, or the capability URL /mcp/TOKEN for agents that take only a
// URL. The token itself appears only when it was just made (created),
// as it is shown only then; otherwise the note says where it is kept.
func accessNote(addr, tok, path string, created bool) string {
	where := "$" + serve.TokenEnv
	if path != "" {
		where = path
	}
	if !created {
		return fmt.Sprintf("mcpdeck serve: send the header \"Authorization: Bearer TOKEN\", or give an agent that takes only a URL http://%s/mcp/TOKEN (TOKEN is in %s)", addr, where)
	}
	return fmt.Sprintf("mcpdeck serve: send the header \"Authorization: Bearer TOKEN\", or give an agent that takes only a URL (a secret, as the token is): http://%s%s", addr, serve.CapabilityPath(tok))
}
