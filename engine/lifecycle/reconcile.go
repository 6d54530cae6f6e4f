package lifecycle

import (
	"slices"

	"github.com/mcpdeck/mcpdeck/model"
)

// ActionKind is what Reconcile decides for one server.
type ActionKind int

const (
	ActUpdate  ActionKind = iota // refresh the shown definition, leave the connection alone
	ActStart                     // connect a server that is not running
	ActStop                      // close it and show why it is not running
	ActRestart                   // its config hash changed: close and connect again
	ActAdd                       // new server that may not run: show it
	ActRemove                    // gone from config: close and forget
)

func (k ActionKind) String() string {
	switch k {
	case ActUpdate:
		return "update"
	case ActStart:
		return "start"
	case ActStop:
		return "stop"
	case ActRestart:
		return "restart"
	case ActAdd:
		return "add"
	case ActRemove:
		return "remove"
	}
	return "unknown"
}

// RunInfo is what Reconcile needs to know about a server the engine has.
type RunInfo struct {
	Hash     string
	Runnable bool // it was runnable when last (re)configured
	Active   bool // connected, connecting, or a retry is scheduled
}

// Action is one step Reconcile asks the engine to take.
type Action struct {
	Kind   ActionKind
	Name   string
	Server model.Server // the desired definition (zero for remove)
}

// Reconcile compares the desired servers with what the engine has and
// returns the steps to get there. It is pure: only servers whose config hash
// changed are restarted; a failed server with an unchanged config stays
// failed until the person reconnects it. Actions come in desired order,
// removals last.
func Reconcile(desired []model.Server, have map[string]RunInfo) []Action {
	var out []Action
	seen := make(map[string]bool, len(desired))
	for _, srv := range desired {
		seen[srv.Name] = true
		cur, ok := have[srv.Name]
		run := srv.Runnable()
		switch {
		case !ok && run:
			out = append(out, Action{Kind: ActStart, Name: srv.Name, Server: srv})
		case !ok:
			out = append(out, Action{Kind: ActAdd, Name: srv.Name, Server: srv})
		case !run && (cur.Active || cur.Runnable):
			out = append(out, Action{Kind: ActStop, Name: srv.Name, Server: srv})
		case !run:
			out = append(out, Action{Kind: ActUpdate, Name: srv.Name, Server: srv})
		case cur.Hash != srv.Hash && (cur.Active || cur.Runnable):
			out = append(out, Action{Kind: ActRestart, Name: srv.Name, Server: srv})
		case !cur.Runnable:
			// Became runnable (enabled, approved, policy lifted).
			out = append(out, Action{Kind: ActStart, Name: srv.Name, Server: srv})
		default:
			out = append(out, Action{Kind: ActUpdate, Name: srv.Name, Server: srv})
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
		out = append(out, Action{Kind: ActRemove, Name: name})
	}
	return out
}
