package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// partOwners maps each field group of entry to the types whose methods
// may change it: the part and its per-server state.
var partOwners = map[string][]string{
	"conn":   {"runner", "connState"},
	"lists":  {"listParts", "listState"},
	"calls":  {"callParts", "callState"},
	"logs":   {"logParts", "logState", "trafficState"},
	"asks":   {"askParts", "askState"},
	"watch":  {"subParts", "watchState"},
	"health": {"healthParts", "healthState"},
	"pins":   {"pinParts", "pinState"},
	"memory": {"memoryParts", "memoryState"},
}

// partFuncs are the plain functions that belong to a part.
var partFuncs = map[string]string{"markCollisions": "lists"}

// crossCalls are the calls of another part's mutator (a method of its
// per-server state that writes it) the design wants, as
// "caller→group.method": entry.forget drops what every part learned from
// a connection, and a new tool list drops the compiled input schemas.
var crossCalls = map[string]bool{
	"entry.forget→lists.forget":    true,
	"entry.forget→conn.forget":     true,
	"entry.forget→calls.forget":    true,
	"entry.forget→pins.forget":     true,
	"listParts.apply→calls.forget": true,
}

// TestPartsOwnTheirFields fails when code writes one part's fields of an
// entry (en.lists.tools = …, en.asks.asking++, &en.watch, or a call of a
// method that writes them, en.calls.forget()) outside that part's methods:
// each part is the only writer of what it keeps.
func TestPartsOwnTheirFields(t *testing.T) {
	fset, files := engineSources(t)
	muts := mutators(files)
	if len(muts) == 0 {
		t.Fatal("found no method of a part's state that writes it")
	}
	for _, f := range files {
		for _, v := range partViolations(fset, f, muts) {
			t.Error(v)
		}
	}
}

// mutators are the methods of the parts' per-server states (listState,
// callState, …) that write their receiver's fields.
func mutators(files []*ast.File) map[string]bool {
	states := map[string]bool{}
	for _, owners := range partOwners {
		for _, o := range owners[1:] {
			states[o] = true
		}
	}
	out := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !states[funcOwner(fd)] || len(fd.Recv.List[0].Names) == 0 {
				continue
			}
			recv := fd.Recv.List[0].Names[0].Name
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				var lhs []ast.Expr
				switch n := n.(type) {
				case *ast.AssignStmt:
					lhs = n.Lhs
				case *ast.IncDecStmt:
					lhs = []ast.Expr{n.X}
				}
				for _, l := range lhs {
					if rootIdent(l) == recv {
						out[fd.Name.Name] = true
					}
				}
				return true
			})
		}
	}
	return out
}

// rootIdent is the name x selects or indexes from (c for c.schemas[k]).
func rootIdent(x ast.Expr) string {
	for {
		switch v := ast.Unparen(x).(type) {
		case *ast.SelectorExpr:
			x = v.X
		case *ast.IndexExpr:
			x = v.X
		case *ast.StarExpr:
			x = v.X
		case *ast.Ident:
			return v.Name
		default:
			return ""
		}
	}
}

// partViolations lists the writes in f to a part's fields from outside
// the part; muts are the methods that write a part's state.
func partViolations(fset *token.FileSet, f *ast.File, muts map[string]bool) []string {
	var out []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		owner := funcOwner(fd)
		check := func(x ast.Expr, addr bool) {
			group := partOf(x, addr)
			if group == "" || owns(owner, group) {
				return
			}
			out = append(out, fset.Position(x.Pos()).String()+": "+group+" fields written outside their part (from "+fd.Name.Name+")")
		}
		ast.Inspect(fd, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					check(l, false)
				}
			case *ast.IncDecStmt:
				check(n.X, false)
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					check(n.X, true)
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || !muts[sel.Sel.Name] {
					break
				}
				if group := partOf(sel.X, true); group != "" && !crossCalls[owner+"."+fd.Name.Name+"→"+group+"."+sel.Sel.Name] {
					check(sel.X, true)
				}
			}
			return true
		})
	}
	return out
}

// funcOwner is the receiver's type name, or the part a plain function
// belongs to.
func funcOwner(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return partFuncs[fd.Name.Name]
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// owns reports whether code owned by owner may write group.
func owns(owner, group string) bool {
	if owner == group {
		return true
	}
	for _, o := range partOwners[group] {
		if o == owner {
			return true
		}
	}
	return false
}

// partOf returns the field group x writes into: "lists" for
// en.lists.tools and en.lists.tools[i].Denied, and for &en.lists (addr);
// "" otherwise. A write to the group field itself (t.conn = …) is a
// callTarget's, not an entry's.
func partOf(x ast.Expr, addr bool) string {
	for outer := true; ; outer = false {
		switch v := ast.Unparen(x).(type) {
		case *ast.IndexExpr:
			x = v.X
		case *ast.SelectorExpr:
			if _, ok := partOwners[v.Sel.Name]; ok && isEntryExpr(v.X) && (!outer || addr) {
				return v.Sel.Name
			}
			x = v.X
		default:
			return ""
		}
	}
}

// isEntryExpr reports whether x looks like an entry: a name (en, cur) or
// an element of the engine's table (e.order[0], e.byName[n]).
func isEntryExpr(x ast.Expr) bool {
	switch ast.Unparen(x).(type) {
	case *ast.Ident, *ast.IndexExpr:
		return true
	}
	return false
}

// TestPartCheckFindsWrites makes sure the check above can fail.
func TestPartCheckFindsWrites(t *testing.T) {
	const src = `package engine
func (e *Engine) elsewhere(en *entry) {
	en.lists.tools = nil
	en.asks.asking++
	a := &en.watch
	e.order[0].logs.errors = 1
	en.lists.tools[0].Denied = true
	_ = a
}
func (p *listParts) mine(en *entry) { en.lists.tools = nil; s := &en.lists; _ = s }
func markCollisions(en *entry) { en.lists.tools = nil }
func (c *callParts) t(t callTarget) { t.conn = nil }
func (l *listState) forget() { l.tools = nil }
func (e *Engine) drop(en *entry) { en.lists.forget() }
func (p *listParts) own(en *entry) { en.lists.forget() }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "elsewhere.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	muts := mutators([]*ast.File{f})
	if !muts["forget"] || len(muts) != 1 {
		t.Errorf("mutators = %v, want forget alone", muts)
	}
	if got := partViolations(fset, f, muts); len(got) != 6 {
		t.Errorf("found %d writes, want 6: %v", len(got), got)
	}
}

// engineSources parses the engine package's files, tests left out.
func engineSources(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if len(files) < 10 {
		t.Fatalf("parsed %d files: the engine's sources were not found", len(files))
	}
	return fset, files
}
