// Package partcheck helps the tests that keep a package a thin front over
// parts that own their fields (oauth's Manager, serve's Gateway): it
// parses the package's sources, counts the front's methods, and finds
// every selection of a part's field outside the part's own methods. It
// reads names, not types: a part's fields are named so that no other type
// in the package shares the name.
package partcheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Sources parses the Go files in dir, tests left out, failing t when
// there are fewer than least (the sources were not found).
func Sources(t *testing.T, dir string, least int) (*token.FileSet, []*ast.File) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if len(files) < least {
		t.Fatalf("parsed %d files in %s: the package's sources were not found", len(files), dir)
	}
	return fset, files
}

// Parse parses one planted source, for the tests that prove a check fails.
func Parse(t *testing.T, src string) (*token.FileSet, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "planted.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	return fset, []*ast.File{f}
}

// ReceiverType is the type name of fd's receiver, "" for a function.
func ReceiverType(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	x := fd.Recv.List[0].Type
	if s, ok := x.(*ast.StarExpr); ok {
		x = s.X
	}
	if id, ok := x.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// Methods counts the methods declared on typ.
func Methods(files []*ast.File, typ string) int {
	n := 0
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && ReceiverType(fd) == typ {
				n++
			}
		}
	}
	return n
}

// Trespasses lists, by position, every selection of a field named in
// fields (field → the types whose methods may touch it) outside the
// methods of those types. A composite literal's keys (a constructor
// making a part) are not selections and pass.
func Trespasses(fset *token.FileSet, files []*ast.File, fields map[string][]string) []string {
	var out []string
	for _, f := range files {
		for _, d := range f.Decls {
			owner := ""
			if fd, ok := d.(*ast.FuncDecl); ok {
				owner = ReceiverType(fd)
			}
			ast.Inspect(d, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if allowed, ok := fields[sel.Sel.Name]; ok && !slices.Contains(allowed, owner) {
					out = append(out, fset.Position(sel.Pos()).String()+": ."+sel.Sel.Name+" belongs to "+strings.Join(allowed, " or "))
				}
				return true
			})
		}
	}
	return out
}
