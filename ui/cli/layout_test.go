package cli

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// cliPath is this package's import path; its sub-packages are below it.
const cliPath = "github.com/mcpdeck/mcpdeck/ui/cli"

// siblingImports are the command packages a command package may import
// besides clicore: `mcp add` reads and stores a client secret as `auth`
// does, and installs from the registry with its client and bundle store.
var siblingImports = map[string][]string{
	"mcpcmd": {"authcmd", "registrycmd"},
}

// TestPackageLayout reads the non-test sources of every sub-package: each
// has a doc comment; clicore, which they all share, imports none of them;
// a command package imports clicore and no other package of the CLI (but
// its listed siblings), and nothing imports this root package, so the
// command groups stay independent of each other and of the wiring.
func TestPackageLayout(t *testing.T) {
	dirs, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, d := range dirs {
		if d.IsDir() && d.Name() != "testdata" {
			pkgs = append(pkgs, d.Name())
		}
	}
	if !slices.Contains(pkgs, "clicore") || len(pkgs) < 5 {
		t.Fatalf("sub-packages %v: want clicore and the command packages", pkgs)
	}
	for _, pkg := range pkgs {
		imports, documented := readPackage(t, pkg)
		if !documented {
			t.Errorf("%s has no package doc comment saying what it holds", pkg)
		}
		for _, imp := range imports {
			if imp == cliPath {
				t.Errorf("%s imports %s: the root only wires the sub-packages together", pkg, cliPath)
				continue
			}
			sub, ok := strings.CutPrefix(imp, cliPath+"/")
			if !ok {
				continue
			}
			switch {
			case pkg == "clicore":
				t.Errorf("clicore imports %s: what every command shares depends on no command", imp)
			case sub != "clicore" && !slices.Contains(siblingImports[pkg], sub):
				t.Errorf("%s imports %s: a command package builds on clicore, not on another command package", pkg, imp)
			}
		}
	}
}

// readPackage returns the imports of dir's non-test Go files and whether
// one of them carries the package's doc comment.
func readPackage(t *testing.T, dir string) (imports []string, documented bool) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		documented = documented || f.Doc != nil
		for _, is := range f.Imports {
			p, err := strconv.Unquote(is.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			imports = append(imports, p)
		}
	}
	if len(files) == 0 {
		t.Errorf("%s holds no Go files", dir)
	}
	return imports, documented
}
