package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// unlockHelper is the one function in the engine's tree that may unlock a
// mutex (engine/lock).
const unlockHelper = "With"

// TestNoUnlockByHand fails when code in the engine or its packages unlocks
// a mutex anywhere but in lock.With, deferred: every other path takes a
// lock through it (or locked, withEntry and ifEntry on top of it, lock.go),
// so no return can leave a lock held.
func TestNoUnlockByHand(t *testing.T) {
	fset := token.NewFileSet()
	helpers := 0 // deferred unlocks in unlockHelper
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ok, bad := unlocks(fset, f)
		helpers += ok
		for _, b := range bad {
			t.Errorf("%s: unlock by hand; take the lock through lock.With (engine/lock)", b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if helpers != 1 {
		t.Errorf("found %d deferred unlocks in a function named %s, want exactly one: lock.With", helpers, unlockHelper)
	}
}

// unlocks counts f's deferred unlocks inside unlockHelper (ok) and lists,
// by position, every other call of Unlock or RUnlock (bad).
func unlocks(fset *token.FileSet, f *ast.File) (ok int, bad []string) {
	for _, d := range f.Decls {
		fn, isFn := d.(*ast.FuncDecl)
		deferred := map[*ast.CallExpr]bool{}
		ast.Inspect(d, func(n ast.Node) bool {
			if ds, is := n.(*ast.DeferStmt); is {
				deferred[ds.Call] = true
			}
			call, is := n.(*ast.CallExpr)
			if !is {
				return true
			}
			sel, is := call.Fun.(*ast.SelectorExpr)
			if !is || (sel.Sel.Name != "Unlock" && sel.Sel.Name != "RUnlock") {
				return true
			}
			if isFn && fn.Recv == nil && fn.Name.Name == unlockHelper && deferred[call] {
				ok++
			} else {
				bad = append(bad, fset.Position(call.Pos()).String())
			}
			return true
		})
	}
	return ok, bad
}

// TestUnlockCheckFindsUnlocks makes sure the check above can fail.
func TestUnlockCheckFindsUnlocks(t *testing.T) {
	const src = `package engine
func With(mu *sync.Mutex, f func()) { mu.Lock(); defer mu.Unlock(); f() }
func (e *Engine) early() {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return
	}
	defer e.mu.Unlock()
}
func (w *watcher) With() { w.mu.Lock(); defer w.mu.RUnlock() }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "early.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ok, bad := unlocks(fset, f); ok != 1 || len(bad) != 3 {
		t.Errorf("found %d helper unlocks and %d by hand %v, want 1 and 3", ok, len(bad), bad)
	}
}
