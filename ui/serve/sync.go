package serve

import (
	"reflect"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// apply offers what snap holds. Only a list that changed is set again, and
// setting it sends the agent that list's list_changed notification. Most
// snapshots change nothing offered (a server's traffic or log messages,
// published every 200 ms while they flow): then the exposure is kept, not
// built again (which checks every tool's schema).
func (g *Gateway) apply(snap engine.Snapshot) {
	g.setting.Lock()
	defer g.setting.Unlock()
	g.applyHeld(snap)
	g.setSeq = max(g.setSeq, snap.Seq)
}

// applyHeld is apply, holding g.setting: from the exposure built to the
// last list set in mcp-go, a call of a name not offered waits for it
// (explainNotOffered).
func (g *Gateway) applyHeld(snap engine.Snapshot) {
	g.mu.Lock()
	if snap.Seq < g.snap.Seq { // never step back to an older snapshot
		g.mu.Unlock()
		return
	}
	view := g.viewLocked(snap)
	x := g.x
	if !sameOffer(g.view, view) {
		x = expose(view, g.f)
	}
	old := g.x
	g.gone.note(g.snap.Servers, snap.Servers)
	g.snap, g.view, g.x = snap, view, x
	notes := g.notesLocked(snap, x)
	settled, ready := g.settledLocked(snap)
	updated := g.updatedLocked(snap)
	g.mu.Unlock()

	for _, n := range notes {
		g.note(n)
	}
	g.sendUpdates(updated)
	tools, prompts := differ(old.tools, x.tools), differ(old.prompts, x.prompts)
	resources, templates := differ(old.resources, x.resources), differ(old.templates, x.templates)
	changed := tools || prompts || resources || templates
	if changed {
		// Setting a list tells the agents at once: from then until the
		// last list is set, their lists go to mcp-go, not to results
		// encoded from the lists before (listcache.go).
		g.lists.hold()
	}
	if tools {
		set(x.tools, g.srv.SetTools, func(t mcp.Tool) server.ServerTool {
			return server.ServerTool{Tool: t, Handler: g.callTool}
		})
	}
	if prompts {
		set(x.prompts, g.srv.SetPrompts, func(p mcp.Prompt) server.ServerPrompt {
			return server.ServerPrompt{Prompt: p, Handler: g.getPrompt}
		})
	}
	if resources {
		set(x.resources, g.srv.SetResources, func(r mcp.Resource) server.ServerResource {
			return server.ServerResource{Resource: r, Handler: g.readResource}
		})
	}
	if templates {
		set(x.templates, g.srv.SetResourceTemplates, func(t mcp.ResourceTemplate) server.ServerResourceTemplate {
			return server.ServerResourceTemplate{Template: t, Handler: g.readTemplate(t.URITemplate.Raw())}
		})
	}
	if changed {
		g.lists.release()
	}
	if settled {
		g.start.markSettled()
	}
	if ready {
		g.start.markReady()
	}
	g.mu.Lock()
	g.bumpLocked()
	g.mu.Unlock()
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

// notesLocked are the lines to tell the person about this snapshot: an
// offered server whose kind changed (connected, failed…), each burst of a
// server's requests the engine declined (it lets engine.MaxPendingAsks
// wait, also for the agents serve asks), and each item left out, once.
// Callers hold g.mu.
func (g *Gateway) notesLocked(snap engine.Snapshot, x exposure) []string {
	var out []string
	for i := range snap.Servers {
		s := &snap.Servers[i]
		if !g.f.server(s.Name) {
			continue
		}
		if s.Flood.Seq != 0 && s.Flood.Seq != g.floods[s.Name] {
			g.floods[s.Name] = s.Flood.Seq
			out = append(out, status.Flood(s))
		}
		k := status.KindOf(s)
		if old, seen := g.kinds[s.Name]; seen && old == k {
			continue
		}
		g.kinds[s.Name] = k
		if status.OutcomeOf(s) == status.OutcomePending && k == status.Pending {
			continue // still connecting: say so once it settles
		}
		out = append(out, stateSentence(s))
	}
	for _, l := range x.left {
		if !g.told[l] {
			g.told[l] = true
			out = append(out, l)
		}
	}
	return out
}

// settledLocked reports whether every server the filter keeps has settled
// (connected, failed, needs auth, or cannot run), and whether first
// answers need wait for none of them (startup.go): none is still on its
// way to a first connection with no lists known. Callers hold g.mu.
func (g *Gateway) settledLocked(snap engine.Snapshot) (settled, ready bool) {
	settled, ready = true, true
	for i := range snap.Servers {
		s := &snap.Servers[i]
		if g.f.exposes(s) && status.OutcomeOf(s) == status.OutcomePending {
			settled = false
		}
		if g.known.awaitedLocked(g.f, s) {
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
// offered at all (expose). Callers hold g.mu.
func (g *Gateway) viewLocked(snap engine.Snapshot) engine.Snapshot {
	view := snap
	view.Servers = slices.Clone(snap.Servers)
	seen := make(map[string]bool, len(view.Servers))
	for i := range view.Servers {
		s := &view.Servers[i]
		seen[s.Name] = true
		g.known.noteLocked(s)
		if g.f.exposes(s) && s.State != model.StateConnected {
			g.known.offerLocked(s)
		}
	}
	g.known.forgetOthersLocked(seen)
	return view
}
