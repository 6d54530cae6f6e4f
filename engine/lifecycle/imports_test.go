package lifecycle

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// pureImports are the only packages the reducer may import: the model's
// vocabulary and standard packages that do no I/O, start no goroutine and
// read no clock (time is allowed for its types and arithmetic; impure calls
// of it are refused below).
var pureImports = map[string]bool{
	"github.com/mcpdeck/mcpdeck/model": true,
	"cmp":                              true,
	"errors":                           true,
	"fmt":                              true,
	"maps":                             true,
	"math":                             true,
	"slices":                           true,
	"sort":                             true,
	"strconv":                          true,
	"strings":                          true,
	"time":                             true,
	"unicode":                          true,
	"unicode/utf8":                     true,
}

// impureTime are the functions of package time that read the clock, wait
// or start timers.
var impureTime = map[string]bool{
	"Now": true, "Since": true, "Until": true, "Sleep": true, "After": true,
	"AfterFunc": true, "NewTimer": true, "NewTicker": true, "Tick": true,
}

// TestReducerIsPure fails when a file of this package imports anything
// but model and pure standard packages, reads the clock, starts a
// goroutine or uses a channel: the reducer decides from its inputs alone.
func TestReducerIsPure(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, v := range impurities(fset, f) {
			t.Errorf("%s: the reducer must stay pure", v)
		}
	}
	if checked < 3 {
		t.Fatalf("checked %d files: the reducer's sources were not found", checked)
	}
}

// impurities lists, by position, what makes f impure: an import outside
// pureImports, a call of an impure function of time, a go statement, a
// channel.
func impurities(fset *token.FileSet, f *ast.File) []string {
	var out []string
	bad := func(n ast.Node, what string) { out = append(out, fset.Position(n.Pos()).String()+": "+what) }
	timeName := ""
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if !pureImports[path] {
			bad(imp, "imports "+path)
		}
		if path == "time" {
			timeName = "time"
			if imp.Name != nil {
				timeName = imp.Name.Name
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			bad(n, "starts a goroutine")
		case *ast.ChanType:
			bad(n, "uses a channel")
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && timeName != "" && id.Name == timeName && impureTime[n.Sel.Name] {
				bad(n, "calls time."+n.Sel.Name)
			}
		}
		return true
	})
	return out
}

// TestPurityCheckFindsImpurities makes sure the check above can fail:
// every kind of impurity it forbids is found.
func TestPurityCheckFindsImpurities(t *testing.T) {
	const src = `package lifecycle
import (
	"os"
	"sync"
	"net/http"
	clock "time"
	"github.com/mcpdeck/mcpdeck/transports"
)
func impure() {
	_ = clock.Now()
	_ = clock.Since(clock.Time{})
	go func() {}()
	var c chan int
	_ = c
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "impure.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := impurities(fset, f)
	if len(got) != 8 {
		t.Errorf("found %d impurities, want 8 (4 imports, 2 clock reads, 1 goroutine, 1 channel): %v", len(got), got)
	}
}
