package serve

import (
	"fmt"
	"path"

	"github.com/mcpdeck/mcpdeck/engine"
)

// filter narrows what is exposed (--servers, --tools and --ide-tools) and
// says how it is named (--prefix).
type filter struct {
	servers map[string]bool // nil: every server
	tools   []string        // globs on exposed tool names; none: every tool
	// ideTools are the editors' tools the person opted in to beside the
	// ones model.Editor.ForAgents lets through.
	ideTools map[string]bool
	prefix   Prefix
}

// newFilter checks the globs (a malformed one is an error naming it).
func newFilter(servers, tools, ideTools []string) (filter, error) {
	f := filter{tools: tools, ideTools: map[string]bool{}}
	for _, t := range ideTools {
		f.ideTools[t] = true
	}
	if len(servers) > 0 {
		f.servers = map[string]bool{}
		for _, s := range servers {
			f.servers[s] = true
		}
	}
	for _, p := range tools {
		if _, err := path.Match(p, ""); err != nil {
			return filter{}, fmt.Errorf("--tools pattern %q: %w", p, err)
		}
	}
	return f, nil
}

func (f filter) server(name string) bool { return f.servers == nil || f.servers[name] }

// tool reports whether the filter keeps srv's tool t, offered as name:
// an editor's tool only if agents may have it or the person opted in.
func (f filter) tool(srv *engine.ServerSnapshot, t, name string) bool {
	if srv.Editor != nil && !srv.Editor.ForAgents(t) && !f.ideTools[t] {
		return false
	}
	if len(f.tools) == 0 {
		return true
	}
	for _, p := range f.tools {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// exposes reports whether the gateway offers srv's lists: the engine says
// it may run (Runnable: approved, enabled, allowed by policy, no config
// problem) and the filter keeps it. A server that dropped keeps its last
// lists while the engine reconnects it; calls then say what state it is
// in.
func (f filter) exposes(srv *engine.ServerSnapshot) bool {
	return srv.Runnable && f.server(srv.Name)
}
