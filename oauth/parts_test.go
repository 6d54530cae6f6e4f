package oauth

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/partcheck"
)

// maxManagerMethods keeps Manager a thin front: its methods are the
// package's API and the few steps that join parts (obtain, adopt,
// inlineAuth, serially); everything else belongs to a part.
const maxManagerMethods = 30

// partFields maps each field that holds a part's state to the types whose
// methods may touch it: the part itself.
var partFields = map[string][]string{
	"held":   {"tokens"},
	"flight": {"tokens"},
	"hints":  {"discoverer"},
	"by":     {"stepUps", "dpopNonces"},
	"slots":  {"helperCache"},
	"flows":  {"Manager"},
	"mem":    {"needsAuthCache"},
	"broken": {"fallbackStore"},
	"reason": {"fallbackStore"},
	"warn":   {"fallbackStore"},
}

// TestManagerIsThin fails when Manager grows past maxManagerMethods: new
// work goes to the part it belongs to.
func TestManagerIsThin(t *testing.T) {
	_, files := partcheck.Sources(t, ".", 10)
	if n := partcheck.Methods(files, "Manager"); n > maxManagerMethods {
		t.Errorf("Manager has %d methods, want at most %d: give the new work to a part", n, maxManagerMethods)
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

// TestPartChecksFindViolations plants a Manager method that reaches into
// the tokens part, and one method too many, and makes sure both checks
// above fail on them.
func TestPartChecksFindViolations(t *testing.T) {
	var b strings.Builder
	b.WriteString("package oauth\n")
	b.WriteString("func (m *Manager) peek(k string) held { return m.tokens.held.Get(k) }\n")
	b.WriteString("func (t *tokens) fine(k string) held { return t.held.Get(k) }\n")
	for i := range maxManagerMethods {
		b.WriteString("func (m *Manager) m" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + "() {}\n")
	}
	fset, files := partcheck.Parse(t, b.String())
	if got := partcheck.Trespasses(fset, files, partFields); len(got) != 1 {
		t.Errorf("found %d trespasses %v, want 1 (Manager.peek)", len(got), got)
	}
	if n := partcheck.Methods(files, "Manager"); n != maxManagerMethods+1 {
		t.Errorf("counted %d Manager methods, want %d", n, maxManagerMethods+1)
	}
}
