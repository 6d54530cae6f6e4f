package cli

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// newEngReconnectCmd is `mcpdeck mcp reconnect NAME|all`.
func newEngReconnectCmd(g *globalOpts) *cobra.Command {
	return &cobra.Command{
		Use:   "reconnect NAME|all",
		Short: "Connect a server (or all) afresh and show the result",
		Long: "Connects the server afresh, bypassing a remembered failure or needs-auth result,\n" +
			"and prints its state line. Exits 1 if it failed.",
		Args: exactArgs(1, "a server name or all"),
		RunE: func(cmd *cobra.Command, args []string) error {
			var names []string
			if args[0] != "all" {
				names = args
			}
			return engCancelled(runEngList(cmd.Context(), newEngFlags(g), names, true))
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
func runEngList(ctx context.Context, f *engFlags, names []string, reconnect ...bool) error {
	g := f.g
	s, err := startEngSession(ctx, f, names...)
	if err != nil {
		return err
	}
	defer s.Close()
	out := g.stdout
	if len(s.last.Servers) == 0 {
		if g.json {
			return writeJSON(out, engListJSON{Servers: []engine.ServerSnapshot{}, Problems: engNonNil(s.last.Problems), Warnings: engNonNil(s.last.Warnings)})
		}
		fmt.Fprintln(out, "No MCP servers configured. Add one with: mcpdeck mcp add NAME -- COMMAND [ARGS...]")
		return reportFileProblems(g.stderr, s.last.Problems)
	}
	stop := showProgress(g, s)
	results, err := settleEngList(ctx, s, names, len(reconnect) > 0 && reconnect[0])
	stop()
	if err != nil {
		return err
	}
	sortLikeSnapshot(results, s.last)
	for _, w := range s.last.Warnings {
		fmt.Fprintln(g.stderr, "warning: "+textsafe.SanitizeLine(w))
	}
	if g.json {
		doc := engListJSON{Servers: results, Problems: engNonNil(s.last.Problems), Warnings: engNonNil(s.last.Warnings)}
		if err := writeJSON(out, doc); err != nil {
			return err
		}
	} else {
		for _, srv := range results {
			fmt.Fprintln(out, engListLine(srv))
		}
	}
	if err := reportFileProblems(g.stderr, s.last.Problems); err != nil {
		return err
	}
	for _, srv := range results {
		if engOutcomeOf(srv) == status.OutcomeFailed {
			return silentError{}
		}
	}
	return nil
}

// settleEngList waits for every server's outcome; with reconnect, the
// failed and needs-auth ones are reconnected once and their new outcome
// replaces the first.
func settleEngList(ctx context.Context, s *engSession, names []string, reconnect bool) ([]engine.ServerSnapshot, error) {
	var results []engine.ServerSnapshot
	var retry []string
	report := func(srv engine.ServerSnapshot) {
		if o := engOutcomeOf(srv); reconnect && (o == status.OutcomeFailed || o == status.OutcomeNeedsAuth) {
			retry = append(retry, srv.Name)
			return
		}
		results = append(results, srv)
	}
	if err := s.waitSettled(ctx, names, report); err != nil {
		return nil, err
	}
	if len(retry) == 0 {
		return results, nil
	}
	mark := time.Now()
	for _, n := range retry {
		if err := s.eng.Reconnect(ctx, n); err != nil {
			return nil, fmt.Errorf("reconnect %s: %w", n, err)
		}
	}
	collect := func(srv engine.ServerSnapshot) { results = append(results, srv) }
	// only the outcome of the new attempt counts
	if err := s.waitSettledSince(ctx, retry, mark, collect); err != nil {
		return nil, err
	}
	return results, nil
}

// sortLikeSnapshot orders results as the engine orders servers (scope high
// to low, then name), so the output is the same whatever order they
// connected in.
func sortLikeSnapshot(results []engine.ServerSnapshot, snap engine.Snapshot) {
	rank := make(map[string]int, len(snap.Servers))
	for i, srv := range snap.Servers {
		rank[srv.Name] = i
	}
	slices.SortStableFunc(results, func(a, b engine.ServerSnapshot) int { return rank[a.Name] - rank[b.Name] })
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
