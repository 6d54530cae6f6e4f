package serve

import (
	"context"
	"fmt"
	"time"

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
func arrive[T any](rs *routes, ctx context.Context, find func(*exposure) (T, bool), serverOf func(T) string) arrival[T] {
	to, ok := lookup(rs, find)
	if !ok || !rs.awaitServer(ctx, serverOf(to)) {
		return arrival[T]{to: to, ok: ok}
	}
	again, ok := lookup(rs, find)
	if !ok {
		if s, up := rs.g.lists.server(serverOf(to)); up && status.OutcomeOf(&s) == status.OutcomeConnected {
			return arrival[T]{gone: s.Name}
		}
		return arrival[T]{to: to, ok: true} // not up: the call says why (unavailable)
	}
	return arrival[T]{to: again, ok: true}
}

// awaitServer waits while server is offered and on its way to a
// connection, up to the startup limit (or until ctx ends, or the gateway
// closes), and reports whether it waited at all.
func (rs *routes) awaitServer(ctx context.Context, server string) bool {
	changed := rs.g.changed.wait() // taken first: a change after the read rings it
	coming := rs.g.lists.coming(server)
	if !coming {
		return false
	}
	t := time.NewTimer(rs.g.start.waitFor())
	defer t.Stop()
	for coming {
		select {
		case <-changed:
		case <-t.C:
			return true
		case <-ctx.Done():
			return true
		case <-rs.g.base.Done():
			return true
		}
		changed = rs.g.changed.wait()
		coming = rs.g.lists.coming(server)
	}
	return true
}

// goneError is the answer to a request for kind name (plural: kinds),
// offered from what serve knew of server before it connected, that its
// live lists lack.
func goneError(kind, kinds, name, server string) error {
	return fmt.Errorf("mcpdeck serve offered %s %q from what it knew of server %s before it connected, and the server's own list no longer has it; list the %s again",
		kind, name, server, kinds)
}
