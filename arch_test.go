package main

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/mcpdeck/mcpdeck"

// layer is where a package sits in the arrows docs/ARCHITECTURE.md draws
// (ui → engine → transports, oauth → model): a package imports only its
// own layer or those below.
func layer(pkg string) int {
	top, _, _ := strings.Cut(pkg, "/")
	switch top {
	case "main":
		return 4
	case "ui":
		return 3
	case "engine":
		return 2
	case "transports", "oauth":
		return 1
	case "model":
		return 0
	}
	return -1
}

// ourImports maps each package of the module (by its path inside it,
// "main" for the root) to the packages of ours it imports, from its
// non-test files; testdata, node_modules and hidden directories are not
// part of the program.
func ourImports(t *testing.T) map[string][]string {
	t.Helper()
	got := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != "." && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || name == "bin" || name == "docs") {
			return filepath.SkipDir
		}
		p, err := build.Default.ImportDir(path, 0)
		if err != nil {
			return nil // a directory without Go files to build
		}
		name := filepath.ToSlash(path)
		if name == "." {
			name = "main"
		}
		deps := []string{}
		for _, imp := range p.Imports {
			if rest, ok := strings.CutPrefix(imp, module+"/"); ok {
				deps = append(deps, rest)
			}
		}
		slices.Sort(deps)
		got[name] = deps
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// documentedArrows reads the ```arrows block of docs/ARCHITECTURE.md:
// one line per package, "pkg → dep, dep" ("pkg → –" when it imports
// nothing of ours).
func documentedArrows(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile("docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(b), "```arrows\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("docs/ARCHITECTURE.md has no ```arrows block")
	}
	doc := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		from, to, ok := strings.Cut(line, "→")
		if !ok {
			t.Fatalf("arrows line %q has no →", line)
		}
		deps := []string{}
		for _, d := range strings.Split(to, ",") {
			if d = strings.TrimSpace(d); d != "" && d != "–" {
				deps = append(deps, d)
			}
		}
		slices.Sort(deps)
		doc[strings.TrimSpace(from)] = deps
	}
	return doc
}

// TestImportArrowsAreTheDocumented: every import between our packages is
// an arrow docs/ARCHITECTURE.md draws, every arrow drawn is an import,
// and none points up (ui → engine → transports, oauth → model; transports
// and oauth never import each other). An arrow added, removed or reversed
// in code fails here until the document says so.
func TestImportArrowsAreTheDocumented(t *testing.T) {
	code, doc := ourImports(t), documentedArrows(t)
	for pkg, deps := range code {
		want, ok := doc[pkg]
		if !ok {
			t.Errorf("package %s is not in the arrows of docs/ARCHITECTURE.md (it imports %s)", pkg, strings.Join(deps, ", "))
			continue
		}
		for _, d := range deps {
			if !slices.Contains(want, d) {
				t.Errorf("%s imports %s: not an arrow of docs/ARCHITECTURE.md", pkg, d)
			}
		}
		for _, d := range want {
			if !slices.Contains(deps, d) {
				t.Errorf("docs/ARCHITECTURE.md draws %s → %s, which the code does not import", pkg, d)
			}
		}
	}
	for pkg := range doc {
		if _, ok := code[pkg]; !ok {
			t.Errorf("docs/ARCHITECTURE.md draws package %s, which does not exist", pkg)
		}
	}
	for pkg, deps := range code {
		for _, d := range deps {
			up := layer(d) > layer(pkg)
			sideways := layer(d) == 1 && layer(pkg) == 1 && strings.SplitN(d, "/", 2)[0] != strings.SplitN(pkg, "/", 2)[0]
			if layer(pkg) < 0 || up || sideways {
				t.Errorf("%s imports %s: the arrow points up or across (ui → engine → transports, oauth → model)", pkg, d)
			}
		}
	}
}
