package mcpcmd

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// newEngReconnectCmd is `mcpdeck mcp reconnect NAME|all`.
func newEngReconnectCmd(g *clicore.Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "reconnect NAME|all",
		Short: "Connect a server (or all) afresh and show the result",
		Long: "Connects the server afresh, bypassing a remembered failure or needs-auth result,\n" +
			"and prints its state line; one that did not connect is tried once more, and its line\n" +
			"says so (\"reconnected; the first attempt …\", \"tried twice\"). Exits 1 if it failed.",
		Args: cliargs.ExactArgs(1, "a server name or all"),
		RunE: func(cmd *cobra.Command, args []string) error {
			var names []string
			if args[0] != "all" {
				names = args
			}
			return clierr.Cancelled(runEngList(cmd.Context(), clisession.NewEngineFlags(g), names, true))
		},
	}
}

// runEngList connects the named servers (all when names is empty) and
// reports them once all have settled, in the configuration's order (scope,
// then name) whatever order they connected in; on a terminal a progress
// line shows the wait. With reconnect, a server that did not connect is
// asked to reconnect once and reported again. A broken configuration file
// is reported after the servers and fails the command (exit 1), connected
// or not: some servers may be missing.
func runEngList(ctx context.Context, f *clisession.EngineFlags, names []string, reconnect ...bool) error {
	g := f.Globals
	s, err := clisession.StartSession(ctx, f, names...)
	if err != nil {
		return err
	}
	defer s.Close()
	out := g.Stdout
	if len(s.Last.Servers) == 0 {
		if g.JSON {
			if err := cliout.WriteJSON(out, engListJSON{Servers: []engine.ServerSnapshot{}, Problems: engNonNil(s.Last.Problems), Warnings: engNonNil(s.Last.Warnings)}); err != nil {
				return err
			}
			return reportFileProblems(g.Stderr, s.Last.Problems) // exit 1, as with servers
		}
		if len(status.Unreadable(s.Last.Problems)) == 0 { // a broken file is not an empty configuration
			fmt.Fprintln(out, noServers)
		}
		writeUnreadable(out, s.Last.Problems, status.OutcomeFailed.Glyph()+" ")
		return reportFileProblems(g.Stderr, s.Last.Problems)
	}
	stop := showProgress(g, s)
	results, before, err := clisession.SettleReconnecting(ctx, s, names, len(reconnect) > 0 && reconnect[0])
	stop()
	if err != nil {
		return err
	}
	clisession.SortLikeSnapshot(results, s.Last)
	for _, w := range s.Last.Warnings {
		fmt.Fprintln(g.Stderr, "warning: "+textsafe.SanitizeLine(w))
	}
	if g.JSON {
		doc := engListJSON{Servers: results, Problems: engNonNil(s.Last.Problems), Warnings: engNonNil(s.Last.Warnings)}
		if err := cliout.WriteJSON(out, doc); err != nil {
			return err
		}
	} else {
		writeByScope(out, s.Last.Problems, results, func(srv engine.ServerSnapshot) string {
			return clisession.ListLine(srv) + reconnectNote(srv, before)
		})
	}
	if err := reportFileProblems(g.Stderr, s.Last.Problems); err != nil {
		return err
	}
	for _, srv := range results {
		if clisession.OutcomeOf(srv) == status.OutcomeFailed {
			return clierr.SilentError{}
		}
	}
	return nil
}

// reconnectNote says, after a server's line, that `mcp reconnect` tried it
// again and how the first attempt ended; "" for a server it did not.
func reconnectNote(srv engine.ServerSnapshot, before map[string]engine.ServerSnapshot) string {
	b, ok := before[srv.Name]
	switch first := clisession.StatusBody(b); {
	case !ok:
		return ""
	case clisession.OutcomeOf(srv) == status.OutcomeConnected:
		return textsafe.SanitizeLine(" (reconnected; the first attempt " + first + ")")
	case first == clisession.StatusBody(srv):
		return " (tried twice)"
	default:
		return textsafe.SanitizeLine(" (tried again; the first attempt " + first + ")")
	}
}

// engListJSON is what the connecting `mcp list --json` prints: the same
// shape as the static listing ({"servers": [...], "problems": [...]}), each
// server with its live state, error and lists, in the configuration's order.
type engListJSON struct {
	Servers  []engine.ServerSnapshot `json:"servers"`
	Problems []model.Problem         `json:"problems"`
	Warnings []string                `json:"warnings"`
}

func engNonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// writeByScope prints the servers in groups by scope, highest first as
// the TUI's list has them, each headed as there: by the row of the
// scope's unreadable file (✗ user — settings.json unreadable (3:3): …),
// else by the scope's name; the servers' lines, indented, under it.
func writeByScope(w io.Writer, probs []model.Problem, servers []engine.ServerSnapshot, line func(engine.ServerSnapshot) string) {
	unreadable := status.Unreadable(probs)
	for sc := model.ScopeEnterprise; sc >= model.ScopeConnector; sc-- {
		var heads []string
		for _, p := range unreadable {
			if p.Scope == sc {
				heads = append(heads, status.OutcomeFailed.Glyph()+" "+status.UnreadableRow(p))
			}
		}
		var lines []string
		for _, srv := range servers {
			if srv.Scope == sc {
				lines = append(lines, "  "+line(srv))
			}
		}
		if len(heads) == 0 && len(lines) == 0 {
			continue
		}
		if len(heads) == 0 {
			heads = []string{sc.String()}
		}
		for _, l := range append(heads, lines...) {
			fmt.Fprintln(w, l)
		}
	}
}
