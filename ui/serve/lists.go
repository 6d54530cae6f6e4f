package serve

import (
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/engine/lock"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// lists is the part that decides what is offered: the last snapshot
// applied, the view of it the exposure was built from (the lists offered
// of servers not connected filled in, known.go), the exposure itself
// (expose.go), the servers that left the configuration (notoffered.go),
// and the list cache with the fronts that answer from it (listcache.go,
// listfront.go). Everyone else asks it; nothing else reads its fields.
type lists struct {
	g *Gateway

	mu       sync.Mutex
	snap     engine.Snapshot
	view     engine.Snapshot // snap with the lists offered of servers not connected (viewLocked)
	x        exposure        // built from view
	known    known           // what is offered of servers not connected (known.go)
	departed goneServers     // servers that left the configuration (notoffered.go)

	cache listCache // encoded list results until what is offered changes; its own lock
}

// taken is what applying one snapshot changed: the exposure before and
// after, and whether every server settled and first answers may go
// (startup.go).
type taken struct {
	old, cur       exposure
	settled, ready bool
}

// take makes snap the one offered, unless it is older than the last
// (then ok is false). Most snapshots change nothing offered (a server's
// traffic or log messages, published every 200 ms while they flow): then
// the exposure is kept, not built again (which checks every tool's
// schema).
func (l *lists) take(snap engine.Snapshot) (t taken, ok bool) {
	lock.With(&l.mu, func() {
		if snap.Seq < l.snap.Seq { // never step back to an older snapshot
			return
		}
		view := l.viewLocked(snap)
		x := l.x
		if !sameOffer(l.view, view) {
			x = expose(view, l.g.f)
		}
		t.old, t.cur = l.x, x
		l.departed.note(l.snap.Servers, snap.Servers)
		l.snap, l.view, l.x = snap, view, x
		t.settled, t.ready = l.settledLocked(snap)
		ok = true
	})
	return t, ok
}

// offer sets in mcp-go each list that differs between t.old and t.x;
// setting a list sends the agents its list_changed notification. From
// the first list set to the last, the agents' lists go to mcp-go, not to
// results encoded from the lists before (listcache.go).
func (l *lists) offer(t taken) {
	old, x, r, srv := t.old, t.cur, l.g.routes, l.g.srv
	tools, prompts := differ(old.tools, x.tools), differ(old.prompts, x.prompts)
	resources, templates := differ(old.resources, x.resources), differ(old.templates, x.templates)
	changed := tools || prompts || resources || templates
	if !changed {
		return
	}
	l.cache.hold()
	defer l.cache.release()
	if tools {
		set(x.tools, srv.SetTools, func(t mcp.Tool) server.ServerTool {
			return server.ServerTool{Tool: t, Handler: r.callTool}
		})
	}
	if prompts {
		set(x.prompts, srv.SetPrompts, func(p mcp.Prompt) server.ServerPrompt {
			return server.ServerPrompt{Prompt: p, Handler: r.getPrompt}
		})
	}
	if resources {
		set(x.resources, srv.SetResources, func(res mcp.Resource) server.ServerResource {
			return server.ServerResource{Resource: res, Handler: r.readResource}
		})
	}
	if templates {
		set(x.templates, srv.SetResourceTemplates, func(t mcp.ResourceTemplate) server.ServerResourceTemplate {
			return server.ServerResourceTemplate{Template: t, Handler: r.readTemplate(t.URITemplate.Raw())}
		})
	}
}

// differ reports whether a list differs from what was offered.
func differ[T any](old, cur []T) bool { return !reflect.DeepEqual(old, cur) }

// set sets a list again, each item with its handler (setting sends the
// list's list_changed).
func set[T, S any](cur []T, setAll func(...S), wrap func(T) S) {
	items := make([]S, len(cur))
	for i, v := range cur {
		items[i] = wrap(v)
	}
	setAll(items...)
}

// exposed is what is offered now. An exposure is never changed once
// built (take replaces it whole), so the caller reads it without a lock.
func (l *lists) exposed() (x exposure) {
	lock.With(&l.mu, func() { x = l.x })
	return x
}

// server returns the named server from the last snapshot.
func (l *lists) server(name string) (s engine.ServerSnapshot, ok bool) {
	lock.With(&l.mu, func() {
		i := slices.IndexFunc(l.snap.Servers, func(s engine.ServerSnapshot) bool { return s.Name == name })
		if ok = i >= 0; ok {
			s = l.snap.Servers[i]
		}
	})
	return s, ok
}

// coming reports whether server is offered and on its way to a
// connection.
func (l *lists) coming(server string) (coming bool) {
	lock.With(&l.mu, func() {
		for i := range l.snap.Servers {
			if s := &l.snap.Servers[i]; s.Name == server {
				coming = l.g.f.exposes(s) && status.OutcomeOf(s) == status.OutcomePending
			}
		}
	})
	return coming
}

// census counts the servers offered and names those of them connected.
func (l *lists) census() (offered int, connected []string) {
	lock.With(&l.mu, func() {
		for i := range l.snap.Servers {
			s := &l.snap.Servers[i]
			if l.g.f.exposes(s) {
				offered++
				if s.State == model.StateConnected {
					connected = append(connected, s.Name)
				}
			}
		}
	})
	return offered, connected
}

// resourceServer is the offered server a URI belongs to: the one listing
// it, else the one whose template matches it, else the only server
// offered; "" when none is known.
func (l *lists) resourceServer(uri string) (srv string) {
	lock.With(&l.mu, func() { srv = l.resourceServerLocked(uri) })
	return srv
}

func (l *lists) resourceServerLocked(uri string) string {
	if srv, ok := l.x.resourceRoutes[uri]; ok {
		return srv
	}
	for _, t := range l.x.templates {
		if t.URITemplate != nil && t.URITemplate.Regexp().MatchString(uri) {
			return l.x.templateRoutes[t.URITemplate.Raw()]
		}
	}
	only := ""
	for i := range l.snap.Servers {
		if s := &l.snap.Servers[i]; l.g.f.exposes(s) {
			if only != "" {
				return ""
			}
			only = s.Name
		}
	}
	return only
}

// clashes are the names two servers offer now (--prefix never).
func (l *lists) clashes() (c []clash) {
	lock.With(&l.mu, func() { c = l.x.clashes })
	return c
}

// named finds, for offersNo, the server a tool or prompt (kind) name is
// prefixed with, if --servers keeps it (ok): its last snapshot, and when
// it is offered, its tool of that name a permission rule denies (nil when
// none); else, when it left the configuration, the sentence that says so
// (gone).
func (l *lists) named(kind, name string) (s engine.ServerSnapshot, ok bool, denied *engine.Tool, gone string) {
	lock.With(&l.mu, func() {
		s, ok = l.namedServerLocked(name)
		if ok && l.g.f.exposes(&s) && kind == "tool" {
			denied = l.deniedToolLocked(&s, name)
		}
		if !ok {
			gone, ok = l.departed.find(name, l.g.f)
		}
	})
	return s, ok, denied, gone
}

// namedServerLocked finds the server a name is prefixed with (the longest
// such name, as SERVER__NAME is made by model.ServeName), if --servers
// keeps it. Callers hold l.mu.
func (l *lists) namedServerLocked(name string) (engine.ServerSnapshot, bool) {
	var best *engine.ServerSnapshot
	bestLen := 0
	for i := range l.snap.Servers {
		s := &l.snap.Servers[i]
		prefix := model.NormalizeName(s.Name) + "__"
		if len(prefix) > bestLen && strings.HasPrefix(name, prefix) {
			best, bestLen = s, len(prefix)
		}
	}
	if best == nil || !l.g.f.server(best.Name) {
		return engine.ServerSnapshot{}, false
	}
	return *best, true
}

// deniedToolLocked is s's tool offered as name were it allowed, when a
// permission rule denies it; nil otherwise. Callers hold l.mu.
func (l *lists) deniedToolLocked(s *engine.ServerSnapshot, name string) *engine.Tool {
	nameOf := l.g.f.prefix.namer(l.snap, l.g.f)
	for i := range s.Tools {
		if t := &s.Tools[i]; t.Denied && nameOf(s.Name, t.Name) == name {
			return t
		}
	}
	return nil
}

// settledLocked reports whether every server the filter keeps has settled
// (connected, failed, needs auth, or cannot run), and whether first
// answers need wait for none of them (startup.go): none is still on its
// way to a first connection with no lists known. Callers hold l.mu.
func (l *lists) settledLocked(snap engine.Snapshot) (settled, ready bool) {
	settled, ready = true, true
	for i := range snap.Servers {
		s := &snap.Servers[i]
		if l.g.f.exposes(s) && status.OutcomeOf(s) == status.OutcomePending {
			settled = false
		}
		if l.known.awaitedLocked(l.g.f, s) {
			ready = false
		}
	}
	return settled, ready
}

// sameOffer reports whether views a and b offer the same: the same
// servers in the same order, each as able to run, with the same lists.
// Lists are compared by identity: the engine never changes a list it
// published (a change is a new slice), and viewLocked hands back the same
// last lists while a server reconnects.
func sameOffer(a, b engine.Snapshot) bool {
	if len(a.Servers) != len(b.Servers) || len(a.Servers) == 0 {
		return false
	}
	for i := range a.Servers {
		s, t := &a.Servers[i], &b.Servers[i]
		if s.Name != t.Name || s.Runnable != t.Runnable ||
			!same(s.Tools, t.Tools) || !same(s.Prompts, t.Prompts) || !same(s.Resources, t.Resources) || !same(s.Templates, t.Templates) {
			return false
		}
	}
	return true
}

// same reports whether a and b are one slice: same length, same array.
func same[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// viewLocked is snap with every offered server that is not connected
// given the lists serve offers of it (known.go): the engine shows only a
// connection's live lists. A server that may no longer run is not
// offered at all (expose). Callers hold l.mu.
func (l *lists) viewLocked(snap engine.Snapshot) engine.Snapshot {
	view := snap
	view.Servers = slices.Clone(snap.Servers)
	seen := make(map[string]bool, len(view.Servers))
	for i := range view.Servers {
		s := &view.Servers[i]
		seen[s.Name] = true
		l.known.noteLocked(s)
		if l.g.f.exposes(s) && s.State != model.StateConnected {
			l.known.offerLocked(s)
		}
	}
	l.known.forgetOthersLocked(seen)
	return view
}
