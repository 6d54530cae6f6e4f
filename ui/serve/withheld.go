package serve

import (
	"fmt"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/pins"
)

// withheld reports whether the gateway must not offer srv's item (kind,
// name, marked as the engine marked it): the engine withholds what is new
// or changed since the person accepted the server's tools, or differs
// from the repository's lock file, until they review it
// (engine.PinReport); an item of the lists remembered of a server not
// connected carries the mark it had when last seen (mark), which holds
// until a live list is judged. Every list the gateway offers, tools,
// prompts and templates, passes this one check; the note for the person's
// log says how to review it. Once accepted, the next snapshot offers it
// and the agent is sent list_changed.
func (x *exposure) withheld(srv *engine.ServerSnapshot, kind pins.Kind, name string, mark pins.Status) bool {
	st, withheld := srv.Pins.Status(kind, name)
	if !withheld && mark != "" {
		st, withheld = mark, true
	}
	if withheld {
		x.left = append(x.left, fmt.Sprintf("%s %s/%s is not offered: it is %s since you accepted %s's tools; review it: mcpdeck mcp review %s", kind, srv.Name, name, st, srv.Name, srv.Name))
	}
	return withheld
}
