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
		for _, p := range layoutProblems(pkg, imports, documented) {
			t.Error(p)
		}
	}
}

// layoutProblems lists what breaks the layout in one sub-package, given
// its imports and whether it has a doc comment.
func layoutProblems(pkg string, imports []string, documented bool) []string {
	var out []string
	if !documented {
		out = append(out, pkg+" has no package doc comment saying what it holds")
	}
	for _, imp := range imports {
		if imp == cliPath {
			out = append(out, pkg+" imports "+cliPath+": the root only wires the sub-packages together")
			continue
		}
		sub, ok := strings.CutPrefix(imp, cliPath+"/")
		if !ok {
			continue
		}
		switch {
		case pkg == "clicore":
			out = append(out, "clicore imports "+imp+": what every command shares depends on no command")
		case sub != "clicore" && !slices.Contains(siblingImports[pkg], sub):
			out = append(out, pkg+" imports "+imp+": a command package builds on clicore, not on another command package")
		}
	}
	return out
}

// TestLayoutCheckFindsViolations plants each kind of violation in a
// sub-package of a small tree, one of them in a Windows-only file, and
// checks that the layout check reports every one.
func TestLayoutCheckFindsViolations(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"engcmd/call.go":         "// Package engcmd is planted.\npackage engcmd\n\nimport _ \"" + cliPath + "/clicore\"\n",
		"engcmd/call_windows.go": "package engcmd\n\nimport _ \"" + cliPath + "/mcpcmd\"\n",
		"clicore/core.go":        "// Package clicore is planted.\npackage clicore\n\nimport _ \"" + cliPath + "/engcmd\"\n",
		"mcpcmd/add.go":          "package mcpcmd\n\nimport _ \"" + cliPath + "\"\n",
	}
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, pkg := range []string{"engcmd", "clicore", "mcpcmd"} {
		imports, documented := readPackage(t, filepath.Join(root, pkg))
		got = append(got, layoutProblems(pkg, imports, documented)...)
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		"engcmd imports " + cliPath + "/mcpcmd: a command package builds on clicore",
		"clicore imports " + cliPath + "/engcmd: what every command shares",
		"mcpcmd imports " + cliPath + ": the root only wires",
		"mcpcmd has no package doc comment",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the planted violations are missing %q; found:\n%s", want, all)
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
