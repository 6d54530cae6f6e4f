package clisession

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// SettleList waits for every server's outcome; with reconnect, the
// failed and needs-auth ones are reconnected once and their new outcome
// replaces the first.
func SettleList(ctx context.Context, s *Session, names []string, reconnect bool) ([]engine.ServerSnapshot, error) {
	results, _, err := SettleReconnecting(ctx, s, names, reconnect)
	return results, err
}

// SettleReconnecting is SettleList that also says which servers it
// reconnected: before, by name, is how each of those first ended (what
// `mcp reconnect` tells beside the new outcome).
func SettleReconnecting(ctx context.Context, s *Session, names []string, reconnect bool) (results []engine.ServerSnapshot, before map[string]engine.ServerSnapshot, err error) {
	var retry []string
	before = map[string]engine.ServerSnapshot{}
	report := func(srv engine.ServerSnapshot) {
		if o := OutcomeOf(srv); reconnect && (o == status.OutcomeFailed || o == status.OutcomeNeedsAuth) {
			retry = append(retry, srv.Name)
			before[srv.Name] = srv
			return
		}
		results = append(results, srv)
	}
	if err := s.WaitSettled(ctx, names, report); err != nil {
		return nil, nil, err
	}
	if len(retry) == 0 {
		return results, before, nil
	}
	mark := time.Now()
	for _, n := range retry {
		if err := s.Eng.Reconnect(ctx, n); err != nil {
			return nil, nil, fmt.Errorf("reconnect %s: %w", n, err)
		}
	}
	collect := func(srv engine.ServerSnapshot) { results = append(results, srv) }
	// only the outcome of the new attempt counts
	if err := s.waitSettledSince(ctx, retry, mark, collect); err != nil {
		return nil, nil, err
	}
	return results, before, nil
}

// SortLikeSnapshot orders results as the engine orders servers (scope high
// to low, then name), so the output is the same whatever order they
// connected in.
func SortLikeSnapshot(results []engine.ServerSnapshot, snap engine.Snapshot) {
	rank := make(map[string]int, len(snap.Servers))
	for i, srv := range snap.Servers {
		rank[srv.Name] = i
	}
	slices.SortStableFunc(results, func(a, b engine.ServerSnapshot) int { return rank[a.Name] - rank[b.Name] })
}
