package serve

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// Prefix is --prefix: whether offered tools and prompts carry their
// server's name (SERVER__NAME) or their own.
type Prefix string

// The --prefix choices. PrefixAuto is the default: an agent given one
// server sees that server's own names (as the server's own clients do),
// one given several sees SERVER__NAME, so two servers' names never meet.
const (
	PrefixAuto   Prefix = "auto"   // SERVER__NAME when more than one server is offered
	PrefixAlways Prefix = "always" // always SERVER__NAME
	PrefixNever  Prefix = "never"  // always the server's own names; two servers sharing one is refused
)

// ErrBadPrefix is a --prefix value that is none of the choices.
var ErrBadPrefix = errors.New("--prefix takes auto, always or never")

// ErrNameClash is --prefix never meeting two servers that offer one name.
var ErrNameClash = errors.New("two servers offer the same name")

// ParsePrefix reads a --prefix value ("" is auto).
func ParsePrefix(s string) (Prefix, error) {
	switch p := Prefix(strings.ToLower(strings.TrimSpace(s))); p {
	case "":
		return PrefixAuto, nil
	case PrefixAuto, PrefixAlways, PrefixNever:
		return p, nil
	}
	return "", fmt.Errorf("%w, not %q", ErrBadPrefix, s)
}

// prefixed reports whether the names of snap's offered servers carry their
// server's name. Under auto that is when more than one server is offered:
// counted among those that may run and that --servers keeps, connected or
// not, so the answer does not change as they connect (and a restart with
// the same config gives the same names); it changes only when a server is
// added, removed, enabled or disabled.
func (p Prefix) prefixed(snap engine.Snapshot, f filter) bool {
	switch p {
	case PrefixAlways:
		return true
	case PrefixNever:
		return false
	case PrefixAuto:
	}
	offered := 0
	for i := range snap.Servers {
		if f.exposes(&snap.Servers[i]) {
			offered++
		}
	}
	return offered > 1
}

// namer is how exposure names one server's tool or prompt.
type namer func(server, name string) string

// namer names items for snap: SERVER__NAME (model.ServeName) or the
// item's own name (model.ServeOwnName), as prefixed says.
func (p Prefix) namer(snap engine.Snapshot, f filter) namer {
	if p.prefixed(snap, f) {
		return model.ServeName
	}
	return func(_, name string) string { return model.ServeOwnName(name) }
}

// describe is the sentence serve says at start about the names it gives.
func (p Prefix) describe(snap engine.Snapshot, f filter) string {
	switch {
	case p == PrefixAlways:
		return "tools and prompts are named SERVER__NAME (--prefix always)"
	case p == PrefixNever:
		return "tools and prompts keep their servers' names (--prefix never: two servers offering one name stop serve)"
	case p.prefixed(snap, f):
		return "tools and prompts are named SERVER__NAME (--prefix auto: more than one server is offered)"
	}
	return "tools and prompts keep their server's names (--prefix auto: one server is offered)"
}

// instructions tells the agent how names are made, for the instructions
// it is given at initialize.
func (p Prefix) instructions() string {
	switch p {
	case PrefixAlways:
		return "Tools and prompts are named SERVER__NAME; "
	case PrefixNever:
		return "Tools and prompts keep the names their servers give them; "
	case PrefixAuto:
	}
	return "Tools and prompts are named SERVER__NAME when more than one server is offered, otherwise as their server names them; "
}

// clashWait bounds how long --prefix never waits at start for the servers
// to settle before judging names: long enough for an npx download, short
// enough that a hung server does not hold the agent's start for ever (a
// clash that appears later leaves the second name out, said on stderr).
const clashWait = 10 * time.Second

// refuseClashes is --prefix never's check at start: once the servers
// settled (or clashWait passed), a tool or prompt name two servers offer
// is an error naming both.
func (g *Gateway) refuseClashes(ctx context.Context) error {
	// Not the lists' wait (--wait): a slow server's clash must still stop the start.
	t := time.NewTimer(clashWait)
	defer t.Stop()
	select {
	case <-g.start.settled:
	case <-t.C:
	case <-ctx.Done():
		return ctx.Err()
	}
	g.mu.Lock()
	clashes := g.x.clashes
	g.mu.Unlock()
	if len(clashes) == 0 {
		return nil
	}
	return fmt.Errorf("--prefix never: %w: %s; use --prefix auto or always, or leave one out with --servers or --tools", ErrNameClash, strings.Join(clashes, "; "))
}
