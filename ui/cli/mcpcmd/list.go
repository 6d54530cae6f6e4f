package mcpcmd

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/imports"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// newMCPListCmd is `mcpdeck mcp list`: connect every server and print one
// line per server, like a health check (runEngList); with --no-connect,
// print the listing from the config files alone, instantly and without
// starting anything.
func newMCPListCmd(g *clicore.Globals) *cobra.Command {
	var noConnect bool
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "Connect to every configured server and show its state (✓ ✗ ! ○ ⊘ ⊖ …)",
		Long: "Connects to every enabled, approved server and prints one line per server, under a\n" +
			"heading per scope (highest first, then by name, as the TUI groups them): ✓ connected,\n" +
			"✗ failed (with the reason), ! needs auth, ○ disabled, ⊘ blocked by policy, ⊖ rejected,\n" +
			"… pending approval. On a terminal a progress line shows which servers are still\n" +
			"starting. Exits 1 if any enabled server failed or a config file is broken.\n" +
			"--no-connect lists the same servers in the same order from the files alone.",
		Example: "  mcpdeck mcp list\n  mcpdeck mcp list --json",
		Args:    cliargs.ExactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if noConnect {
				res, err := clicore.LoadResolved(g)
				if err != nil {
					return err
				}
				return printStaticList(g, res)
			}
			return clierr.Cancelled(runEngList(cmd.Context(), clisession.NewEngineFlags(g), nil))
		},
	}
	cmd.Flags().BoolVar(&noConnect, "no-connect", false, "only read the config files: do not start or contact any server")
	return cmd
}

// listJSON is the document `mcp list --json` prints.
type listJSON struct {
	Servers    []serverView        `json:"servers"`
	Problems   []model.Problem     `json:"problems"`
	Enterprise bool                `json:"enterprise,omitempty"`
	Suppressed []config.Suppressed `json:"suppressed,omitempty"`
}

// printStaticList prints every server of res without connecting: a table (or
// JSON with --json) on g.stdout. File-level problems (a broken config file)
// go to g.stderr, one sentence each, after the servers that did load; they
// make the command fail (clierr.SilentError → exit 1) since some servers are missing.
func printStaticList(g *clicore.Globals, res *config.Resolved) error {
	if g.JSON {
		doc := listJSON{Servers: []serverView{}, Problems: res.Problems, Enterprise: res.Enterprise, Suppressed: res.Suppressed}
		if doc.Problems == nil {
			doc.Problems = []model.Problem{}
		}
		mem := protocolMemory()
		for _, s := range byScope(res.Servers) {
			doc.Servers = append(doc.Servers, newServerView(s).withProtocol(s, mem))
		}
		if err := cliout.WriteJSON(g.Stdout, doc); err != nil {
			return err
		}
	} else {
		writeUnreadable(g.Stdout, res.Problems, "")
		writeServerTable(g.Stdout, res, nil)
	}
	// as the connecting list says it (among the engine's warnings)
	lo, err := g.LoadOptions()
	if err == nil {
		has := func(name string) bool { _, ok := res.Server(name); return ok }
		if u := imports.ClaudeCodeUnimported(imports.Env{Home: lo.Home, Cwd: lo.Cwd}, has); u != nil {
			fmt.Fprintln(g.Stderr, "warning: "+u.Notice())
		}
	}
	return reportFileProblems(g.Stderr, res.Problems)
}

// extraColumn adds a column to writeServerTable (the engine adds STATE).
type extraColumn struct {
	Header string
	Value  func(model.Server) string
}

// writeServerTable writes the text listing: one row per server, then the
// servers' problems, then a hint when project servers await approval.
func writeServerTable(w io.Writer, res *config.Resolved, extra []extraColumn) {
	if res.Enterprise {
		fmt.Fprintln(w, "Managed configuration ("+config.ManagedMCPFile+") is in effect: every other scope is ignored.")
	}
	if len(res.Servers) == 0 {
		if len(status.Unreadable(res.Problems)) == 0 { // a broken file is not an empty configuration
			fmt.Fprintln(w, noServers)
		}
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "NAME\tSCOPE\tTRANSPORT\tENABLED\tAPPROVAL\tPOLICY")
	for _, c := range extra {
		fmt.Fprint(tw, "\t"+c.Header)
	}
	fmt.Fprintln(tw)
	pending := 0
	var probs []model.Problem
	for _, s := range byScope(res.Servers) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s", textsafe.SanitizeLine(s.Name), s.Scope, textsafe.SanitizeLine(clisession.TransportText(s.Raw.EffectiveType(), s.Raw.Sandbox)),
			yesNo(s.Enabled), approvalText(s.Approval), textsafe.SanitizeLine(policyText(s.Policy)))
		for _, c := range extra {
			fmt.Fprint(tw, "\t"+textsafe.SanitizeLine(c.Value(s)))
		}
		fmt.Fprintln(tw)
		probs = append(probs, s.Problems...)
		if s.Approval.Status == model.ApprovalPending || s.Approval.Status == model.ApprovalChanged {
			pending++
		}
	}
	_ = tw.Flush()
	for _, d := range res.Suppressed {
		fmt.Fprintf(w, "Hidden: %s from %s (%s) duplicates %s.\n", textsafe.SanitizeLine(d.Name), d.Origin.Scope, textsafe.SanitizeLine(d.Origin.Source), textsafe.SanitizeLine(d.By))
	}
	if len(probs) > 0 {
		fmt.Fprintln(w, "\nProblems (these servers cannot run):")
		for _, p := range probs {
			fmt.Fprintln(w, "  ! "+textsafe.SanitizeLine(p.Error()))
		}
	}
	switch {
	case pending == 1:
		fmt.Fprintln(w, "\n1 project server awaits approval: mcpdeck mcp approve NAME|all")
	case pending > 1:
		fmt.Fprintf(w, "\n%d project servers await approval: mcpdeck mcp approve NAME|all\n", pending)
	}
}

// byScope is the servers in the order the connecting list and the TUI
// show them: by scope, highest first, then by name.
func byScope(servers []model.Server) []model.Server {
	out := slices.Clone(servers)
	slices.SortStableFunc(out, func(a, b model.Server) int {
		if c := cmp.Compare(b.Scope, a.Scope); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out
}

// noServers is what the listings say when nothing is configured.
const noServers = "No MCP servers configured. Add one with: mcpdeck mcp add NAME -- COMMAND [ARGS...]"

// writeUnreadable prints, before the servers, the row of each scope's file
// whose servers could not be read, in the words of the TUI's list
// (status.UnreadableRow), after mark; the servers such a file gave before
// it broke are listed as usual.
func writeUnreadable(w io.Writer, probs []model.Problem, mark string) {
	for _, p := range status.Unreadable(probs) {
		fmt.Fprintln(w, mark+status.UnreadableRow(p))
	}
}

// reportFileProblems prints file-level problems to w and returns clierr.SilentError
// when there were any.
func reportFileProblems(w io.Writer, probs []model.Problem) error {
	for _, p := range probs {
		fmt.Fprintln(w, "mcpdeck: "+clierr.Sentence(p))
	}
	if len(probs) > 0 {
		return clierr.SilentError{}
	}
	return nil
}
