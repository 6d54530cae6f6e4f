package serve

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"
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

// packageFiles parses the package's files, tests left out.
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
	if len(files) < 10 {
		t.Fatalf("parsed %d files: the package's sources were not found", len(files))
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

// gatewayMethods counts the methods declared on Gateway.
func gatewayMethods(files []*ast.File) int {
	n := 0
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && receiverType(fd) == "Gateway" {
				n++
			}
		}
	}
	return n
}

// fieldTrespasses lists, by position, every selection of a part's state
// field outside the methods of the part that owns it. A struct literal's
// keys (newGateway making the parts) are not selections and pass.
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

// TestGatewayIsThin fails when Gateway grows past maxGatewayMethods: new
// work goes to the part it belongs to.
func TestGatewayIsThin(t *testing.T) {
	_, files := packageFiles(t)
	if n := gatewayMethods(files); n > maxGatewayMethods {
		t.Errorf("Gateway has %d methods, want at most %d: give the new work to a part", n, maxGatewayMethods)
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
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "planted.go", b.String(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := fieldTrespasses(fset, []*ast.File{f}); len(got) != 2 {
		t.Errorf("found %d trespasses %v, want 2 (Gateway.peek, routes.told)", len(got), got)
	}
	if n := gatewayMethods([]*ast.File{f}); n != maxGatewayMethods+1 {
		t.Errorf("counted %d Gateway methods, want %d", n, maxGatewayMethods+1)
	}
}
