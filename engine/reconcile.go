package engine

import (
	"slices"

	"github.com/mcpdeck/mcpdeck/model"
)

// actionKind is what reconcile decides for one server.
type actionKind int

const (
	actUpdate  actionKind = iota // refresh the shown definition, leave the connection alone
	actStart                     // connect a server that is not running
	actStop                      // close it and show why it is not running
	actRestart                   // its config hash changed: close and connect again
	actAdd                       // new server that may not run: show it
	actRemove                    // gone from config: close and forget
)

func (k actionKind) String() string {
	switch k {
	case actUpdate:
		return "update"
	case actStart:
		return "start"
	case actStop:
		return "stop"
	case actRestart:
		return "restart"
	case actAdd:
		return "add"
	case actRemove:
		return "remove"
	}
	return "unknown"
}

// runInfo is what reconcile needs to know about a server the engine has.
type runInfo struct {
	Hash     string
	Runnable bool // it was runnable when last (re)configured
	Active   bool // connected, connecting, or a retry is scheduled
}

// action is one step reconcile asks the engine to take.
type action struct {
	Kind   actionKind
	Name   string
	Server model.Server // the desired definition (zero for remove)
}

// reconcile compares the desired servers with what the engine has and
// returns the steps to get there. It is pure: only servers whose config hash
// changed are restarted; a failed server with an unchanged config stays
// failed until the person reconnects it. Actions come in desired order,
// removals last.
func reconcile(desired []model.Server, have map[string]runInfo) []action {
	var out []action
	seen := make(map[string]bool, len(desired))
	for _, srv := range desired {
		seen[srv.Name] = true
		cur, ok := have[srv.Name]
		run := srv.Runnable()
		switch {
		case !ok && run:
			out = append(out, action{Kind: actStart, Name: srv.Name, Server: srv})
		case !ok:
			out = append(out, action{Kind: actAdd, Name: srv.Name, Server: srv})
		case !run && (cur.Active || cur.Runnable):
			out = append(out, action{Kind: actStop, Name: srv.Name, Server: srv})
		case !run:
			out = append(out, action{Kind: actUpdate, Name: srv.Name, Server: srv})
		case cur.Hash != srv.Hash && (cur.Active || cur.Runnable):
			out = append(out, action{Kind: actRestart, Name: srv.Name, Server: srv})
		case !cur.Runnable:
			// Became runnable (enabled, approved, policy lifted).
			out = append(out, action{Kind: actStart, Name: srv.Name, Server: srv})
		default:
			out = append(out, action{Kind: actUpdate, Name: srv.Name, Server: srv})
		}
	}
	var gone []string
	for name := range have {
		if !seen[name] {
			gone = append(gone, name)
		}
	}
	slices.Sort(gone)
	for _, name := range gone {
		out = append(out, action{Kind: actRemove, Name: name})
	}
	return out
}
