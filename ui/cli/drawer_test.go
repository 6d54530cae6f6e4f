package cli

import (
	"fmt"
	"go/ast"
	"go/parser"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A shared package that keeps growing becomes a drawer: every command
// imports it for one thing and gets all the rest. These bounds keep each
// one to a single kind of thing; a package that outgrows them is split by
// what it holds, as clicore was.
const (
	maxSharedFiles    = 10 // non-test Go files of a shared package
	maxSharedExported = 30 // its exported functions and methods
	maxCoreFiles      = 6  // clicore: what every command is given, and no more
)

func TestSharedPackagesAreNoDrawers(t *testing.T) {
	for _, pkg := range shared {
		files, exported := packageSize(t, pkg)
		for _, p := range drawerProblems(pkg, files, exported) {
			t.Error(p)
		}
	}
}

func drawerProblems(pkg string, files, exported int) []string {
	var out []string
	maxFiles := maxSharedFiles
	if pkg == "clicore" {
		maxFiles = maxCoreFiles
	}
	if files > maxFiles {
		out = append(out, fmt.Sprintf("%s has %d non-test files (at most %d): split it by what it holds", pkg, files, maxFiles))
	}
	if exported > maxSharedExported {
		out = append(out, fmt.Sprintf("%s exports %d functions (at most %d): split it by what it holds", pkg, exported, maxSharedExported))
	}
	return out
}

func TestDrawerCheckFindsViolations(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "clicore")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range maxCoreFiles + 1 {
		var src strings.Builder
		src.WriteString("package clicore\n")
		for j := range 5 {
			fmt.Fprintf(&src, "func F%d_%d() {}\n", i, j)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", i)), []byte(src.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A test file counts for neither bound.
	if err := os.WriteFile(filepath.Join(dir, "f_test.go"), []byte("package clicore\nfunc Test() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, exported := packageSize(t, dir)
	if files != maxCoreFiles+1 || exported != 5*(maxCoreFiles+1) {
		t.Fatalf("counted %d files and %d exported functions, want %d and %d", files, exported, maxCoreFiles+1, 5*(maxCoreFiles+1))
	}
	all := strings.Join(drawerProblems("clicore", files, exported), "\n")
	for _, want := range []string{"clicore has 7 non-test files (at most 6)", "clicore exports 35 functions (at most 30)"} {
		if !strings.Contains(all, want) {
			t.Errorf("the planted drawer is missing %q; found:\n%s", want, all)
		}
	}
	if got := drawerProblems("cliout", files, 3); len(got) != 0 {
		t.Errorf("7 files in a shared package other than clicore: %v", got)
	}
}

// packageSize counts dir's non-test Go files, on every OS, and their
// exported functions and methods.
func packageSize(t *testing.T, dir string) (files, exported int) {
	t.Helper()
	parsed := parseNonTest(t, dir, parser.SkipObjectResolution)
	for _, f := range parsed {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.IsExported() {
				exported++
			}
		}
	}
	return len(parsed), exported
}
