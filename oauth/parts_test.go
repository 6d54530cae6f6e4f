package oauth

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"
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

func packageFiles(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	entries, err := os.ReadDir(".")
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
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return fset, files
}

// receiverType is the type name of fd's receiver, "" for a function.
func receiverType(fd *ast.FuncDecl) string {
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

// managerMethods counts the methods declared on Manager.
func managerMethods(files []*ast.File) int {
	n := 0
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && receiverType(fd) == "Manager" {
				n++
			}
		}
	}
	return n
}

// fieldTrespasses lists, by position, every selection of a part's state
// field outside the methods of the types allowed to touch it.
func fieldTrespasses(fset *token.FileSet, files []*ast.File) []string {
	var out []string
	for _, f := range files {
		for _, d := range f.Decls {
			owner := ""
			if fd, ok := d.(*ast.FuncDecl); ok {
				owner = receiverType(fd)
			}
			ast.Inspect(d, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if allowed, ok := partFields[sel.Sel.Name]; ok && !slices.Contains(allowed, owner) {
					out = append(out, fset.Position(sel.Pos()).String()+": ."+sel.Sel.Name+" belongs to "+strings.Join(allowed, " or "))
				}
				return true
			})
		}
	}
	return out
}

// TestManagerIsThin fails when Manager grows past maxManagerMethods: new
// work goes to the part it belongs to.
func TestManagerIsThin(t *testing.T) {
	_, files := packageFiles(t)
	if n := managerMethods(files); n > maxManagerMethods {
		t.Errorf("Manager has %d methods, want at most %d: give the new work to a part", n, maxManagerMethods)
	}
}

// TestPartsOwnTheirFields fails when code outside a part reads or writes
// what the part keeps: each part is the only way to its state.
func TestPartsOwnTheirFields(t *testing.T) {
	fset, files := packageFiles(t)
	for _, v := range fieldTrespasses(fset, files) {
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
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "planted.go", b.String(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := fieldTrespasses(fset, []*ast.File{f}); len(got) != 1 {
		t.Errorf("found %d trespasses %v, want 1 (Manager.peek)", len(got), got)
	}
	if n := managerMethods([]*ast.File{f}); n != maxManagerMethods+1 {
		t.Errorf("counted %d Manager methods, want %d", n, maxManagerMethods+1)
	}
}
