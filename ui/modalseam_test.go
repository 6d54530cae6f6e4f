package ui

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRootAsksNoModalItsType: the root package knows modals only through
// their interface. No type switch or type assertion in its code may name a
// modal implementation, nor look into a modal value (asserting it to any
// other type): what a modal is about, it says itself.
func TestRootAsksNoModalItsType(t *testing.T) {
	checks := modalTypeChecks(t)
	for _, c := range checks {
		t.Errorf("%s", c)
	}
	if len(checks) > 0 {
		t.Logf("%d checks of a modal's type; the root tells a modal apart by what it answers (tuikit.Modal.Answers)", len(checks))
	}
}

// modalTypeChecks type-checks the root package's production files and
// lists every place that asks a modal its concrete type.
func modalTypeChecks(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: exportImporter(t, fset)}
	pkg, err := conf.Check("github.com/mcpdeck/mcpdeck/ui", fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	modal := modalType(t, pkg)
	iface := modal.Underlying().(*types.Interface)
	isModal := func(x types.Type) bool {
		switch {
		case x == nil:
			return false
		case types.IsInterface(x):
			return types.Identical(x, modal)
		}
		return types.Implements(x, iface) || types.Implements(types.NewPointer(x), iface)
	}
	var out []string
	flag := func(at token.Pos, what string) {
		out = append(out, fset.Position(at).String()+": "+what)
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeAssertExpr:
				if n.Type == nil {
					return true // x.(type): the switch's cases are checked below
				}
				if operand := info.TypeOf(n.X); isModal(operand) || isModal(info.TypeOf(n.Type)) {
					flag(n.Pos(), "type assertion "+types.ExprString(n))
				}
			case *ast.TypeSwitchStmt:
				x := switchOperand(n)
				asksModal := isModal(info.TypeOf(x))
				for _, c := range n.Body.List {
					for _, e := range c.(*ast.CaseClause).List {
						if asksModal || isModal(info.TypeOf(e)) {
							flag(e.Pos(), "type switch on "+types.ExprString(x)+" case "+types.ExprString(e))
						}
					}
				}
			}
			return true
		})
	}
	return out
}

// switchOperand is the x of switch x.(type) or switch v := x.(type).
func switchOperand(s *ast.TypeSwitchStmt) ast.Expr {
	var e ast.Expr
	switch a := s.Assign.(type) {
	case *ast.AssignStmt:
		e = a.Rhs[0]
	case *ast.ExprStmt:
		e = a.X
	}
	return e.(*ast.TypeAssertExpr).X
}

// modalType is tuikit.Modal, the one interface modals implement.
func modalType(t *testing.T, pkg *types.Package) types.Type {
	t.Helper()
	for _, imp := range pkg.Imports() {
		if imp.Path() == "github.com/mcpdeck/mcpdeck/ui/tuikit" {
			return imp.Scope().Lookup("Modal").Type()
		}
	}
	t.Fatal("the root does not import ui/tuikit")
	return nil
}

// exportImporter reads the compiler's export data of the package's
// dependencies, as go list -export reports them.
func exportImporter(t *testing.T, fset *token.FileSet) types.Importer {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-export", "-f", "{{.ImportPath}}={{.Export}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	exports := map[string]string{}
	for _, l := range strings.Split(string(bytes.TrimSpace(out)), "\n") {
		if p, file, ok := strings.Cut(l, "="); ok {
			exports[p] = file
		}
	}
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(exports[path])
	})
}
