package latest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoOtherLatestWinsChannel reads the module's Go sources and fails on a
// second hand-written latest-wins channel: a select that drops an unread
// value (an empty receive case beside an empty default) followed by a send
// on the same channel. Such code should use Chan.
func TestNoOtherLatestWinsChannel(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "node_modules", ".git", "latest":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files++
		for _, at := range handWritten(f) {
			t.Errorf("%s: a latest-wins channel written by hand; use engine/latest.Chan", fset.Position(at))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("read only %d source files: the walk did not find the module", files)
	}
}

// handWritten lists where f drops an unread value and sends on the same
// channel right after: a latest-wins channel written by hand.
func handWritten(f *ast.File) []token.Pos {
	var out []token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		if b, ok := n.(*ast.BlockStmt); ok {
			for i, st := range b.List[:max(len(b.List)-1, 0)] {
				if ch := dropsUnread(st); ch != "" && sendsOn(b.List[i+1], ch) {
					out = append(out, st.Pos())
				}
			}
		}
		return true
	})
	return out
}

// TestLatestCheckFindsHandWrittenChannels plants a hand-written
// latest-wins channel in a Windows-only file, beside a select that only
// polls, and makes sure the check above finds the one and not the other.
func TestLatestCheckFindsHandWrittenChannels(t *testing.T) {
	const src = `//go:build windows

package engine

func (e *Engine) publish(s Snapshot) {
	select {
	case <-e.snaps:
	default:
	}
	e.snaps <- s
}

func (e *Engine) poll() {
	select {
	case <-e.wake:
	default:
	}
	e.count++
}
`
	f, err := parser.ParseFile(token.NewFileSet(), "publish_windows.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := handWritten(f); len(got) != 1 {
		t.Errorf("found %d hand-written latest-wins channels, want 1 (publish)", len(got))
	}
}

// dropsUnread returns the channel expression of `select { case <-ch: default: }`
// with both bodies empty, else "".
func dropsUnread(st ast.Stmt) string {
	sel, ok := st.(*ast.SelectStmt)
	if !ok || len(sel.Body.List) != 2 {
		return ""
	}
	var ch string
	hasDefault := false
	for _, c := range sel.Body.List {
		cc := c.(*ast.CommClause)
		if len(cc.Body) != 0 {
			return ""
		}
		if cc.Comm == nil {
			hasDefault = true
			continue
		}
		es, ok := cc.Comm.(*ast.ExprStmt)
		if !ok {
			return ""
		}
		u, ok := es.X.(*ast.UnaryExpr)
		if !ok || u.Op != token.ARROW {
			return ""
		}
		ch = exprText(u.X)
	}
	if !hasDefault {
		return ""
	}
	return ch
}

// sendsOn reports whether st is `ch <- v`.
func sendsOn(st ast.Stmt, ch string) bool {
	s, ok := st.(*ast.SendStmt)
	return ok && exprText(s.Chan) == ch
}

func exprText(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprText(e.X) + "." + e.Sel.Name
	}
	return ""
}
