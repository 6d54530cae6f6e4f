package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
)

// snapshotLifecycle are the ServerSnapshot fields that say where a server
// is and why: the reducer decides them, and only the one function that
// assembles a snapshot (assembler) writes them.
var snapshotLifecycle = []string{
	"State", "Reason", "History", "Attempt", "MaxAttempts", "NextRetry",
	"Error", "ErrorDetail", "ErrorClass", "ExitCode", "Why", "Blockers", "Runnable",
}

// assembler is the one function that builds a server's snapshot
// (entry.snapshot, publish.go); feed is the one that stores what the
// reducer returned.
const assembler = "snapshot"

// TestReducerStateIsSealed fails when lifecycle.State gains an exported
// field: then code outside the reducer's package could change a server's
// state, counters or error without Step.
func TestReducerStateIsSealed(t *testing.T) {
	st := reflect.TypeFor[lifecycle.State]()
	for i := range st.NumField() {
		if f := st.Field(i); f.IsExported() {
			t.Errorf("lifecycle.State.%s is exported: only lifecycle.Step may change a server's lifecycle", f.Name)
		}
	}
}

// TestOnlyStepChangesServerState fails when code in the engine writes a
// lifecycle field of ServerSnapshot outside assembler, takes the
// address of one, assigns a server's reducer state (en.st) outside feed,
// which stores what lifecycle.Step returned, or builds a ServerSnapshot
// anywhere but in assembler.
func TestOnlyStepChangesServerState(t *testing.T) {
	guarded := map[string]bool{}
	for _, n := range snapshotLifecycle {
		guarded[n] = true
	}
	writers := 0
	fset, files := engineSources(t)
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == assembler {
				writers++
			}
		}
		for _, v := range ownerViolations(fset, f, guarded) {
			t.Errorf("%s: only the reducer (engine/lifecycle) changes a server's state, counters or error; %s copies them into the snapshot", v, assembler)
		}
	}
	if writers != 1 {
		t.Fatalf("found %d functions named %s, want 1", writers, assembler)
	}
}

// ownerViolations lists, by position, the writes in f to a guarded field
// outside assembler, the address of one taken, en.st assigned
// outside feed, or a ServerSnapshot built outside assembler (the one
// place a snapshot is assembled).
func ownerViolations(fset *token.FileSet, f *ast.File, guarded map[string]bool) []string {
	var out []string
	bad := func(n ast.Node) { out = append(out, fset.Position(n.Pos()).String()) }
	check := func(fn string, x ast.Expr) {
		sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
		if !ok {
			return
		}
		if (guarded[sel.Sel.Name] && fn != assembler) || (sel.Sel.Name == "st" && fn != "feed") {
			bad(x)
		}
	}
	for _, d := range f.Decls {
		fn := ""
		if fd, ok := d.(*ast.FuncDecl); ok {
			fn = fd.Name.Name
		}
		ast.Inspect(d, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					check(fn, l)
				}
			case *ast.IncDecStmt:
				check(fn, n.X)
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					check("", n.X)
				}
			case *ast.CompositeLit:
				if id, ok := n.Type.(*ast.Ident); ok && id.Name == "ServerSnapshot" && fn != assembler {
					bad(n)
				}
			}
			return true
		})
	}
	return out
}

// TestOwnerCheckFindsWrites makes sure the check above can fail: every
// kind of write it forbids is found in a file outside the reducer.
func TestOwnerCheckFindsWrites(t *testing.T) {
	const src = `package engine
func (e *Engine) elsewhere(en *entry) {
	en.s.State = 1
	en.s.Error, en.s.ExitCode = "x", nil
	en.s.Attempt++
	p := &en.s.NextRetry
	en.st = lifecycle.State{}
	_ = p
	_ = ServerSnapshot{Name: "x"}
}
func (e *Engine) feed(en *entry) { en.st = en.st }
func (en *entry) snapshot() ServerSnapshot { var s ServerSnapshot; s.State = 1; return s }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "elsewhere.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	guarded := map[string]bool{}
	for _, n := range snapshotLifecycle {
		guarded[n] = true
	}
	if got := ownerViolations(fset, f, guarded); len(got) != 7 {
		t.Errorf("found %d writes, want 7: %v", len(got), got)
	}
}
