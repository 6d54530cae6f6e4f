package cli

import (
	"go/ast"
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

// shared are the packages the commands build on, each named for the one
// kind of thing it holds: the global options and the process's I/O
// (clicore), errors and exit codes (clierr), output (cliout), arguments and
// flags (cliargs), server names and did-you-mean (clinames), terminal
// prompts (cliprompt) and engine sessions (clisession). They import one
// another, never a command package.
var shared = []string{"clicore", "clierr", "cliout", "cliargs", "clinames", "cliprompt", "clisession"}

// siblingImports are the command packages a command package may import
// besides the shared ones: `mcp add` reads and stores a client secret as `auth`
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
	for _, want := range shared {
		if !slices.Contains(pkgs, want) {
			t.Errorf("sub-packages %v: want the shared %s", pkgs, want)
		}
	}
	if len(pkgs) < len(shared)+5 {
		t.Fatalf("sub-packages %v: want the shared packages and the command packages", pkgs)
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
		case slices.Contains(shared, sub):
		case slices.Contains(shared, pkg):
			out = append(out, pkg+" imports "+imp+": what every command shares depends on no command")
		case !slices.Contains(siblingImports[pkg], sub):
			out = append(out, pkg+" imports "+imp+": a command package builds on the shared packages, not on another command package")
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
		"cliout/json.go":         "// Package cliout is planted.\npackage cliout\n\nimport _ \"" + cliPath + "/batch\"\n",
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
	for _, pkg := range []string{"engcmd", "clicore", "mcpcmd", "cliout"} {
		imports, documented := readPackage(t, filepath.Join(root, pkg))
		got = append(got, layoutProblems(pkg, imports, documented)...)
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		"engcmd imports " + cliPath + "/mcpcmd: a command package builds on the shared",
		"clicore imports " + cliPath + "/engcmd: what every command shares",
		"cliout imports " + cliPath + "/batch: what every command shares",
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
	files := parseNonTest(t, dir, parser.ImportsOnly|parser.ParseComments)
	for _, f := range files {
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

// parseNonTest parses dir's non-test Go files, those of every OS.
func parseNonTest(t *testing.T, dir string, mode parser.Mode) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, mode)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}
