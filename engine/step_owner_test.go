package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// snapshotLifecycle are the ServerSnapshot fields that say where a server
// is and why: only the reducer (serverState.show) writes them.
var snapshotLifecycle = []string{
	"State", "Reason", "History", "Attempt", "MaxAttempts", "NextRetry",
	"Error", "ErrorDetail", "ErrorClass", "ExitCode", "Why", "Blockers",
}

// reducerFile reports whether a file belongs to the reducer.
func reducerFile(name string) bool { return strings.HasPrefix(filepath.Base(name), "step") }

// TestOnlyStepChangesServerState fails when code outside the reducer's
// files (step*.go) writes a server's state, reason, counters or error:
// a field of serverState or errorFields, or a lifecycle field of
// ServerSnapshot. The one exception is feed (runner.go) storing what step
// returned.
func TestOnlyStepChangesServerState(t *testing.T) {
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	guarded := reducerFields(t, files)
	for name, f := range files {
		if reducerFile(name) {
			continue
		}
		for _, v := range ownerViolations(fset, f, guarded) {
			t.Errorf("%s: only step (engine/step*.go) may change a server's state, counters or error", v)
		}
	}
}

// reducerFields is every field name of the reducer's state types plus the
// snapshot's lifecycle fields.
func reducerFields(t *testing.T, files map[string]*ast.File) map[string]bool {
	t.Helper()
	guarded := map[string]bool{}
	for _, n := range snapshotLifecycle {
		guarded[n] = true
	}
	found := 0
	for name, f := range files {
		if !reducerFile(name) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || (ts.Name.Name != "serverState" && ts.Name.Name != "errorFields") {
				return true
			}
			found++
			for _, fld := range ts.Type.(*ast.StructType).Fields.List {
				for _, id := range fld.Names {
					guarded[id.Name] = true
				}
			}
			return false
		})
	}
	if found != 2 {
		t.Fatalf("the reducer's state types serverState and errorFields are not in engine/step*.go (found %d)", found)
	}
	return guarded
}

// ownerViolations lists, by position, the writes in f to a guarded field,
// the address of one taken, a serverState built, or en.st assigned outside
// feed.
func ownerViolations(fset *token.FileSet, f *ast.File, guarded map[string]bool) []string {
	var out []string
	bad := func(n ast.Node) { out = append(out, fset.Position(n.Pos()).String()) }
	check := func(fn string, x ast.Expr) {
		sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
		if !ok {
			return
		}
		if guarded[sel.Sel.Name] || (sel.Sel.Name == "st" && fn != "feed") {
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
				if id, ok := n.Type.(*ast.Ident); ok && (id.Name == "serverState" || id.Name == "errorFields") {
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
	en.st.attempt++
	en.st.transient = 0
	en.st.err.text = "x"
	en.s.State = 1
	en.s.Error, en.s.ExitCode = "x", nil
	p := &en.st.quickCrash
	en.st = serverState{}
	_ = p
}
func (e *Engine) feed(en *entry) { en.st = en.st }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "elsewhere.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	guarded := map[string]bool{"attempt": true, "transient": true, "text": true, "quickCrash": true}
	for _, n := range snapshotLifecycle {
		guarded[n] = true
	}
	if got := ownerViolations(fset, f, guarded); len(got) != 9 {
		t.Errorf("found %d writes, want 9: %v", len(got), got)
	}
	if _, err := os.Stat("step.go"); err != nil {
		t.Fatalf("the reducer's file is missing: %v", err)
	}
}
