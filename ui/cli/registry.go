package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/engine/registry"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// registryClient is the MCP Registry at MCPDECK_REGISTRY_URL, or the
// official one.
func registryClient() registry.Client {
	return registry.Client{Base: os.Getenv("MCPDECK_REGISTRY_URL")}
}

// newRegistryCmd is `mcpdeck registry search|show`: find servers in the
// MCP Registry and read their server.json.
func newRegistryCmd(g *globalOpts) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "registry",
		Short: "Find servers in the MCP Registry (search, show)",
		Long:  "Reads the MCP Registry API (" + registry.DefaultURL + ", or MCPDECK_REGISTRY_URL).",
		Args:  exactArgs(0, "a subcommand: search or show"),
		RunE: func(*cobra.Command, []string) error {
			return usagef("registry needs a subcommand: search or show")
		},
	}
	cmd.AddCommand(newRegistrySearchCmd(g), newRegistryShowCmd(g))
	return cmd
}

func newRegistrySearchCmd(g *globalOpts) *cobra.Command {
	var limit int
	var all bool
	cmd := &cobra.Command{
		Use:     "search [QUERY]",
		Short:   "List registry servers whose name or description matches QUERY",
		Example: "  mcpdeck registry search filesystem\n  mcpdeck registry search github --all --json",
		Args:    rangeEngArgs(0, 1, "at most one QUERY"),
		RunE: func(cmd *cobra.Command, args []string) error {
			query := ""
			if len(args) == 1 {
				query = args[0]
			}
			c := registryClient()
			var found []registry.Entry
			cursor, more := "", false
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
			if more && !g.json {
				defer fmt.Fprintln(g.stderr, "mcpdeck: more results: add --all, or narrow the query")
			}
			if g.json {
				docs := make([]json.RawMessage, 0, len(found))
				for _, e := range found {
					docs = append(docs, e.Raw)
				}
				return writeJSON(g.stdout, docs)
			}
			if len(found) == 0 {
				fmt.Fprintln(g.stdout, "No servers found.")
				return nil
			}
			for _, e := range found {
				desc := e.Description
				if e.Title != "" {
					desc = e.Title + " — " + desc
				}
				fmt.Fprintln(g.stdout, textsafe.SanitizeLine(fmt.Sprintf("%s  %s  [%s]  %s", e.Name, e.Version, strings.Join(e.Kinds(), ", "), desc)))
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 30, "servers per page")
	cmd.Flags().BoolVar(&all, "all", false, "follow every page")
	return cmd
}

func newRegistryShowCmd(g *globalOpts) *cobra.Command {
	return &cobra.Command{
		Use:     "show NAME[@VERSION]",
		Short:   "Print one server's server.json from the registry",
		Example: "  mcpdeck registry show io.github.modelcontextprotocol/server-filesystem",
		Args:    exactArgs(1, "one server NAME, optionally @VERSION"),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, version, _ := strings.Cut(args[0], "@")
			e, err := registryClient().Show(cmd.Context(), name, version)
			if errors.Is(err, registry.ErrNotFound) {
				return fmt.Errorf("%s is not in the registry (try: mcpdeck registry search %s)", textsafe.SanitizeLine(args[0]), textsafe.SanitizeLine(lastPart(name)))
			}
			if err != nil {
				return err
			}
			return writeJSON(g.stdout, json.RawMessage(e.Raw))
		},
	}
}

// lastPart is the name after its namespace ("server-filesystem").
func lastPart(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[i+1:]
	}
	return name
}
