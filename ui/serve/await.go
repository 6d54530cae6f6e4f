package serve

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/lock"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// A request names what the agent was offered, perhaps from the lists serve
// remembers of a server still connecting (known.go). Such a request waits
// for its server, as long as serve waits for a server to come (startup's
// limit), then goes where the name leads in what is offered then — the
// server's live lists, which may no longer have it.

// arrival is where a request's name leads once its server came.
type arrival[T any] struct {
	to T
	ok bool // the name leads somewhere
	// gone is the server the name led to before it connected, when its
	// live lists no longer have the name; "" otherwise.
	gone string
}

// arrive resolves a request's name with find in what is offered now; when
// it leads to a server still connecting (serverOf), waits for that server
// to connect or fail and resolves the name again.
func arrive[T any](g *Gateway, ctx context.Context, find func(*exposure) (T, bool), serverOf func(T) string) arrival[T] {
	to, ok := lookup(g, find)
	if !ok || !g.awaitServer(ctx, serverOf(to)) {
		return arrival[T]{to: to, ok: ok}
	}
	again, ok := lookup(g, find)
	if !ok {
		if s, up := g.server(serverOf(to)); up && status.OutcomeOf(&s) == status.OutcomeConnected {
			return arrival[T]{gone: s.Name}
		}
		return arrival[T]{to: to, ok: true} // not up: the call says why (unavailable)
	}
	return arrival[T]{to: again, ok: true}
}

// awaitServer waits while server is offered and on its way to a
// connection, up to the startup limit (or until ctx ends, or the gateway
// closes), and reports whether it waited at all.
func (g *Gateway) awaitServer(ctx context.Context, server string) bool {
	coming, changed := g.coming(server)
	if !coming {
		return false
	}
	t := time.NewTimer(g.start.waitFor())
	defer t.Stop()
	for coming {
		select {
		case <-changed:
		case <-t.C:
			return true
		case <-ctx.Done():
			return true
		case <-g.base.Done():
			return true
		}
		coming, changed = g.coming(server)
	}
	return true
}

// coming reports whether server is offered and on its way to a
// connection, with the channel closed at the gateway's next change.
func (g *Gateway) coming(server string) (coming bool, changed <-chan struct{}) {
	lock.With(&g.mu, func() {
		changed = g.changed
		for i := range g.snap.Servers {
			if s := &g.snap.Servers[i]; s.Name == server {
				coming = g.f.exposes(s) && status.OutcomeOf(s) == status.OutcomePending
			}
		}
	})
	return coming, changed
}

// goneError is the answer to a request for kind name (plural: kinds),
// offered from what serve knew of server before it connected, that its
// live lists lack.
func goneError(kind, kinds, name, server string) error {
	return fmt.Errorf("mcpdeck serve offered %s %q from what it knew of server %s before it connected, and the server's own list no longer has it; list the %s again",
		kind, name, server, kinds)
}
