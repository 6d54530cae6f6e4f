// Package registrycmd is `mcpdeck registry search|show`, and the MCP
// Registry client and bundle store that `mcp add --registry` and the TUI's
// + flow share.
package registrycmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
	"github.com/mcpdeck/mcpdeck/ui/registry"
)

// Client is the MCP Registry at MCPDECK_REGISTRY_URL, or the
// official one.
func Client() registry.Client {
	return registry.Client{Base: os.Getenv("MCPDECK_REGISTRY_URL")}
}

// NewCmd is `mcpdeck registry search|show`: find servers in the
// MCP Registry and read their server.json.
func NewCmd(g *clicore.Globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "registry",
		Short: "Find servers in the MCP Registry (search, show)",
		Long:  "Reads the MCP Registry API (" + registry.DefaultURL + ", or MCPDECK_REGISTRY_URL).",
		Args:  cliargs.ExactArgs(0, "a subcommand: search or show"),
		RunE: func(*cobra.Command, []string) error {
			return clierr.Usagef("registry needs a subcommand: search or show")
		},
	}
	cmd.AddCommand(newRegistrySearchCmd(g), newRegistryShowCmd(g))
	return cmd
}

func newRegistrySearchCmd(g *clicore.Globals) *cobra.Command {
	var limit int
	var all bool
	cmd := &cobra.Command{
		Use:     "search [QUERY]",
		Short:   "List registry servers whose name or description matches QUERY",
		Example: "  mcpdeck registry search filesystem\n  mcpdeck registry search github --all --json",
		Args:    cliargs.RangeArgs(0, 1, "at most one QUERY"),
		RunE: func(cmd *cobra.Command, args []string) error {
			query := ""
			if len(args) == 1 {
				query = args[0]
			}
			c := Client()
			var found []registry.Entry
			cursor, more := "", false
			stop := cliout.Waiting(g, "searching the MCP Registry at "+c.URL()+"…")
			defer stop()
			for page := 0; ; page++ {
				p, err := c.Search(cmd.Context(), query, limit, cursor)
				if err != nil {
					return err
				}
				found = append(found, p.Servers...)
				if !all || p.NextCursor == "" || p.NextCursor == cursor || page >= 100 {
					more = !all && p.NextCursor != ""
					break
				}
				cursor = p.NextCursor
			}
			stop()
			if more && !g.JSON {
				defer fmt.Fprintln(g.Stderr, "mcpdeck: more results: add --all, or narrow the query")
			}
			if g.JSON {
				docs := make([]json.RawMessage, 0, len(found))
				for _, e := range found {
					docs = append(docs, e.Raw)
				}
				return cliout.WriteJSON(g.Stdout, docs)
			}
			if len(found) == 0 {
				fmt.Fprintln(g.Stdout, "No servers found.")
				return nil
			}
			for _, e := range found {
				desc := e.Description
				if e.Title != "" {
					desc = e.Title + " — " + desc
				}
				fmt.Fprintln(g.Stdout, textsafe.SanitizeLine(fmt.Sprintf("%s  %s  [%s]  %s", e.Name, e.Version, strings.Join(e.Kinds(), ", "), desc)))
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 30, "servers per page")
	cmd.Flags().BoolVar(&all, "all", false, "follow every page")
	return cmd
}

func newRegistryShowCmd(g *clicore.Globals) *cobra.Command {
	return &cobra.Command{
		Use:     "show NAME[@VERSION]",
		Short:   "Print one server's server.json from the registry",
		Example: "  mcpdeck registry show io.github.modelcontextprotocol/server-filesystem",
		Args:    cliargs.ExactArgs(1, "one server NAME, optionally @VERSION"),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, version, _ := strings.Cut(args[0], "@")
			e, err := Fetch(cmd.Context(), g, name, version, Client().Show)
			if errors.Is(err, registry.ErrNotFound) {
				return fmt.Errorf("%s is not in the registry (try: mcpdeck registry search %s)", textsafe.SanitizeLine(args[0]), textsafe.SanitizeLine(LastPart(name)))
			}
			if err != nil {
				return err
			}
			return cliout.WriteJSON(g.Stdout, json.RawMessage(e.Raw))
		},
	}
}

// Fetch runs fetch (Client's Show or Pinned) for server name at version,
// showing the wait on a terminal.
func Fetch(ctx context.Context, g *clicore.Globals, name, version string, fetch func(context.Context, string, string) (registry.Entry, error)) (registry.Entry, error) {
	stop := cliout.Waiting(g, "fetching "+name+" from the MCP Registry…")
	defer stop()
	return fetch(ctx, name, version)
}

// LastPart is the name after its namespace ("server-filesystem").
func LastPart(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// BundleStore is where MCP bundles are unpacked: <user config dir>/mcpdeck/bundles,
// next to the configuration that runs them (a cache may be emptied; a
// server's program must not vanish).
func BundleStore(opts config.LoadOptions) registry.Bundles {
	return registry.Bundles{Root: filepath.Join(opts.ConfigDir, "bundles"), Home: opts.Home}
}
