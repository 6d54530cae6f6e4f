package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
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
// reports each as it settles. With reconnect, a server that did not
// connect is asked to reconnect once and reported again.
func runEngList(ctx context.Context, f *engFlags, names []string, reconnect ...bool) error {
	g := f.g
	s, err := startEngSession(ctx, f, names...)
	if err != nil {
		return err
	}
	defer s.Close()
	out := g.stdout
	for _, p := range s.last.Problems {
		fmt.Fprintln(g.stderr, "warning: "+model.SanitizeLine(p.Error()))
	}
	if len(s.last.Servers) == 0 {
		if g.json {
			return writeJSON(out, engListJSON{Servers: []engine.ServerSnapshot{}, Problems: engNonNil(s.last.Problems), Warnings: engNonNil(s.last.Warnings)})
		}
		fmt.Fprintln(out, "No MCP servers configured. Add one with: mcpdeck mcp add NAME -- COMMAND [ARGS...]")
		return nil
	}
	var results []engine.ServerSnapshot
	var retry []string
	report := func(srv engine.ServerSnapshot) {
		o := engOutcomeOf(srv)
		if len(reconnect) > 0 && reconnect[0] && (o == ocFailed || o == ocNeedsAuth) {
			retry = append(retry, srv.Name)
			return
		}
		results = append(results, srv)
		if !g.json {
			fmt.Fprintln(out, engListLine(srv))
		}
	}
	if err := s.waitSettled(ctx, names, report); err != nil {
		return err
	}
	if len(retry) > 0 {
		mark := time.Now()
		for _, n := range retry {
			if err := s.eng.Reconnect(ctx, n); err != nil {
				return fmt.Errorf("reconnect %s: %w", n, err)
			}
		}
		report = func(srv engine.ServerSnapshot) {
			results = append(results, srv)
			if !g.json {
				fmt.Fprintln(out, engListLine(srv))
			}
		}
		// only the outcome of the new attempt counts
		if err := s.waitSettledSince(ctx, retry, mark, report); err != nil {
			return err
		}
	}
	for _, w := range s.last.Warnings {
		fmt.Fprintln(g.stderr, "warning: "+model.SanitizeLine(w))
	}
	if g.json {
		doc := engListJSON{Servers: results, Problems: engNonNil(s.last.Problems), Warnings: engNonNil(s.last.Warnings)}
		if err := writeJSON(out, doc); err != nil {
			return err
		}
	}
	failed := 0
	for _, srv := range results {
		if engOutcomeOf(srv) == ocFailed {
			failed++
		}
	}
	if failed > 0 {
		return silentError{}
	}
	return nil
}

// engListJSON is what the connecting `mcp list --json` prints: the same
// shape as the static listing ({"servers": [...], "problems": [...]}), each
// server with its live state, error and lists, in the order results came.
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
