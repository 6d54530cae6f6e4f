package main

import (
	"fmt"
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

// targetOS are the systems the program is built for (make cross): each
// one's build context picks its own files (_windows.go, //go:build unix,
// …), so an import that only one of them compiles is still seen.
var targetOS = []string{"linux", "darwin", "windows", "freebsd"}

// ourImports maps each package of the module under root (by its path
// inside it, "main" for the root) to the packages of ours it imports, from
// its non-test files of every system in goos; testdata, node_modules and
// hidden directories are not part of the program.
func ourImports(t *testing.T, root string, goos []string) map[string][]string {
	t.Helper()
	got := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || name == "bin" || name == "docs") {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, path)
		name := filepath.ToSlash(rel)
		if name == "." {
			name = "main"
		}
		found := false
		deps := []string{}
		for _, sys := range goos {
			ctxt := build.Default
			ctxt.GOOS = sys
			p, err := ctxt.ImportDir(path, 0)
			if err != nil {
				continue // no Go files for this system
			}
			found = true
			for _, imp := range p.Imports {
				if rest, ok := strings.CutPrefix(imp, module+"/"); ok && !slices.Contains(deps, rest) {
					deps = append(deps, rest)
				}
			}
		}
		if found {
			slices.Sort(deps)
			got[name] = deps
		}
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

// TestImportArrowsAreTheDocumented: every import between our packages, on
// every system the program is built for, is an arrow docs/ARCHITECTURE.md
// draws, every arrow drawn is an import, and none points up (ui → engine →
// transports, oauth → model; transports and oauth never import each
// other). An arrow added, removed or reversed in code fails here until the
// document says so.
func TestImportArrowsAreTheDocumented(t *testing.T) {
	for _, p := range arrowProblems(ourImports(t, ".", targetOS), documentedArrows(t)) {
		t.Error(p)
	}
}

// arrowProblems compares the imports of the code with the documented
// arrows and the layers.
func arrowProblems(code, doc map[string][]string) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	for pkg, deps := range code {
		want, ok := doc[pkg]
		if !ok {
			add("package %s is not in the arrows of docs/ARCHITECTURE.md (it imports %s)", pkg, strings.Join(deps, ", "))
			continue
		}
		for _, d := range deps {
			if !slices.Contains(want, d) {
				add("%s imports %s: not an arrow of docs/ARCHITECTURE.md", pkg, d)
			}
		}
		for _, d := range want {
			if !slices.Contains(deps, d) {
				add("docs/ARCHITECTURE.md draws %s → %s, which the code does not import", pkg, d)
			}
		}
	}
	for pkg := range doc {
		if _, ok := code[pkg]; !ok {
			add("docs/ARCHITECTURE.md draws package %s, which does not exist", pkg)
		}
	}
	for pkg, deps := range code {
		for _, d := range deps {
			up := layer(d) > layer(pkg)
			sideways := layer(d) == 1 && layer(pkg) == 1 && strings.SplitN(d, "/", 2)[0] != strings.SplitN(pkg, "/", 2)[0]
			if layer(pkg) < 0 || up || sideways {
				add("%s imports %s: the arrow points up or across (ui → engine → transports, oauth → model)", pkg, d)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestArrowCheckSeesEveryOS plants an upward import (model → ui) in a
// Windows-only file of a small tree, and an arrow across (oauth →
// transports) behind a unix build tag: the checks above fail on both,
// though a walk with the host's build context alone sees neither file of
// the other system.
func TestArrowCheckSeesEveryOS(t *testing.T) {
	root := plantTree(t, map[string]string{
		"model/types.go":          "package model\n",
		"model/types_windows.go":  "package model\n\nimport _ \"" + module + "/ui\"\n",
		"oauth/oauth.go":          "package oauth\n",
		"oauth/kill_unix.go":      "//go:build unix\n\npackage oauth\n\nimport _ \"" + module + "/transports\"\n",
		"transports/transport.go": "package transports\n",
		"ui/ui.go":                "package ui\n",
		"main.go":                 "package main\n",
	})
	doc := map[string][]string{"main": {}, "model": {}, "oauth": {}, "transports": {}, "ui": {}}
	problems := strings.Join(arrowProblems(ourImports(t, root, targetOS), doc), "\n")
	for _, want := range []string{
		"model imports ui: the arrow points up",
		"oauth imports transports: the arrow points up or across",
		"model imports ui: not an arrow",
	} {
		if !strings.Contains(problems, want) {
			t.Errorf("the planted tree's problems lack %q; got:\n%s", want, problems)
		}
	}
	for _, sys := range targetOS {
		if sys == "windows" {
			continue
		}
		if deps := ourImports(t, root, []string{sys})["model"]; len(deps) != 0 {
			t.Errorf("a %s build context sees model importing %v; the planted import is Windows-only", sys, deps)
		}
	}
}

// plantTree writes files (path: source) into a new directory, for the
// planted-violation tests of the structure checks, and returns it.
func plantTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}
