package serve

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/partcheck"
)

// maxGatewayMethods keeps Gateway a thin front: its methods are the
// package's API (New's gateway, ServeStdio, ServeHTTP, Close), the
// transports' fronts and the few steps that join parts; everything else
// belongs to a part.
const maxGatewayMethods = 30

// partFields maps each field that holds a part's state to the types whose
// methods may touch it: the part itself. Each part guards them with its
// own mutex through lock.With (or keeps none that change).
var partFields = map[string][]string{
	// lists: what is offered
	"snap":     {"lists"},
	"view":     {"lists"},
	"x":        {"lists"},
	"known":    {"lists"},
	"departed": {"lists"},
	"cache":    {"lists"},
	// sessions: the agents
	"byID":        {"sessions"},
	"subs":        {"sessions"},
	"logFallback": {"sessions"},
	// routes: agent requests in flight
	"calls": {"routes"},
	// questions: servers' questions put to agents
	"fallback": {"questions"},
	"pending":  {"questions"},
	// syncer: following the engine
	"applied":   {"syncer"},
	"told":      {"syncer"},
	"floods":    {"syncer"},
	"lastKinds": {"syncer"},
}

// TestGatewayIsThin fails when Gateway grows past maxGatewayMethods: new
// work goes to the part it belongs to.
func TestGatewayIsThin(t *testing.T) {
	_, files := partcheck.Sources(t, ".", 10)
	if n := partcheck.Methods(files, "Gateway"); n > maxGatewayMethods {
		t.Errorf("Gateway has %d methods, want at most %d: give the new work to a part", n, maxGatewayMethods)
	}
}

// TestPartsOwnTheirFields fails when code outside a part reads or writes
// what the part keeps: each part is the only way to its state.
func TestPartsOwnTheirFields(t *testing.T) {
	fset, files := partcheck.Sources(t, ".", 10)
	for _, v := range partcheck.Trespasses(fset, files, partFields) {
		t.Error(v)
	}
}

// TestPartChecksFindViolations plants a Gateway method that reaches into
// the lists part, a routes method that reaches into the syncer's, and one
// Gateway method too many, and makes sure both checks above fail on them.
func TestPartChecksFindViolations(t *testing.T) {
	var b strings.Builder
	b.WriteString("package serve\n")
	b.WriteString("func (g *Gateway) peek() exposure { return g.lists.x }\n")
	b.WriteString("func (rs *routes) told(n string) bool { return rs.g.syncer.told[n] }\n")
	b.WriteString("func (l *lists) fine() exposure { return l.x }\n")
	b.WriteString("func newThing(g *Gateway) *lists { return &lists{g: g, known: newKnown()} }\n")
	for i := range maxGatewayMethods {
		b.WriteString("func (g *Gateway) m" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + "() {}\n")
	}
	fset, files := partcheck.Parse(t, b.String())
	if got := partcheck.Trespasses(fset, files, partFields); len(got) != 2 {
		t.Errorf("found %d trespasses %v, want 2 (Gateway.peek, routes.told)", len(got), got)
	}
	if n := partcheck.Methods(files, "Gateway"); n != maxGatewayMethods+1 {
		t.Errorf("counted %d Gateway methods, want %d", n, maxGatewayMethods+1)
	}
}
