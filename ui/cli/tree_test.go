package cli

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/completion"
)

// constructorClosure matches the name Go gives a closure written inside a
// command constructor (newXxxCmd, newXxxCmds, or NewCmd and the like, in
// this package or one of its sub-packages), e.g.
// ".../ui/cli/mcpcmd.newMCPListCmd.func1".
var constructorClosure = regexp.MustCompile(`/ui/cli(/[a-z]+)?\.([Nn]ew[A-Za-z]*Cmds?\.)+func[0-9.]+$`)

// treeFingerprint describes every command of a tree: its path, aliases,
// flags and the function its RunE is.
func treeFingerprint(t *testing.T, root *cobra.Command) []string {
	t.Helper()
	var lines []string
	seen := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := c.CommandPath()
		if seen[path] {
			t.Errorf("%s appears twice in the command tree", path)
		}
		seen[path] = true
		var flags []string
		c.LocalFlags().VisitAll(func(f *pflag.Flag) { flags = append(flags, f.Name) })
		run := "-"
		if c.Run != nil {
			t.Errorf("%s uses Run; every command returns its error through RunE", path)
		}
		if c.RunE != nil {
			run = runtime.FuncForPC(reflect.ValueOf(c.RunE).Pointer()).Name()
			if !constructorClosure.MatchString(run) {
				t.Errorf("%s runs %s: its RunE must be written in the command's constructor (newXxxCmd), not swapped in afterwards", path, run)
			}
		}
		lines = append(lines, fmt.Sprintf("%s aliases=%v flags=%v run=%s", path, c.Aliases, flags, run))
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return lines
}

// TestCommandTreeBuiltOnce checks that each command is built complete by one
// constructor: its RunE is a closure of that constructor (not a wrapper
// added by a later pass over the tree), no path appears twice, and building
// the tree again gives the same tree.
func TestCommandTreeBuiltOnce(t *testing.T) {
	newG := func() *clicore.Globals {
		return &clicore.Globals{
			Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{},
			NewLoadOptions: func([]string) (config.LoadOptions, error) { return config.LoadOptions{}, nil },
		}
	}
	first := treeFingerprint(t, newRootCmd(newG()))
	second := treeFingerprint(t, newRootCmd(newG()))
	if !reflect.DeepEqual(first, second) {
		t.Errorf("building the tree twice gave different trees:\n%s\n---\n%s", strings.Join(first, "\n"), strings.Join(second, "\n"))
	}
	// `mcp list` connects, and --no-connect (its own flag) reads the config.
	var list string
	for _, l := range first {
		if strings.HasPrefix(l, "mcpdeck mcp list ") {
			list = l
		}
	}
	if !strings.Contains(list, "flags=[no-connect]") || !strings.Contains(list, "newMCPListCmd") {
		t.Errorf("mcp list = %q, want one command with --no-connect built by newMCPListCmd", list)
	}
}

// commandFields are the cobra.Command fields that decide what a command
// does; only the function that creates the command may set them.
var commandFields = map[string]bool{
	"Run": true, "RunE": true, "PreRun": true, "PreRunE": true, "PostRun": true, "PostRunE": true,
	"PersistentPreRun": true, "PersistentPreRunE": true, "PersistentPostRun": true, "PersistentPostRunE": true,
	"Args": true, "Use": true, "Short": true, "Long": true,
}

// TestNoCommandChangedAfterConstruction reads the source of this package
// and its sub-packages: a command's behaviour fields are assigned only in
// the function whose &cobra.Command{...} literal created it, and no command
// is removed from or looked up in the tree while building it, so nothing
// depends on the order in which subtrees are added.
func TestNoCommandChangedAfterConstruction(t *testing.T) {
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			for _, p := range constructionProblems(fset, fn) {
				t.Error(p)
			}
		}
	}
	if checked == 0 || !slices.ContainsFunc(files, func(f string) bool { return filepath.Dir(f) != "." }) {
		t.Fatalf("read %d source files, none of a sub-package", checked)
	}
}

// constructionProblems lists, in fn, assignments to a command's behaviour
// fields on a variable fn did not create from a cobra.Command literal, and
// calls that edit or search a built tree.
func constructionProblems(fset *token.FileSet, fn *ast.FuncDecl) []string {
	var out []string
	created := map[string]bool{}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, rhs := range as.Rhs {
			if isCommandLiteral(rhs) && i < len(as.Lhs) {
				if id, ok := as.Lhs[i].(*ast.Ident); ok {
					created[id.Name] = true
				}
			}
		}
		return true
	})
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				sel, ok := lhs.(*ast.SelectorExpr)
				if !ok || !commandFields[sel.Sel.Name] {
					continue
				}
				if id, ok := sel.X.(*ast.Ident); !ok || !created[id.Name] {
					out = append(out, fmt.Sprintf("%s: %s sets %s on a command it did not create; set it in the command's constructor",
						fset.Position(n.Pos()), fn.Name.Name, exprString(sel)))
				}
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "RemoveCommand" || sel.Sel.Name == "Find") {
				out = append(out, fmt.Sprintf("%s: %s calls %s: build each subtree once instead of editing the tree", fset.Position(n.Pos()), fn.Name.Name, sel.Sel.Name))
			}
		}
		return true
	})
	return out
}

// TestConstructionCheckFindsEdits plants, in a Windows-only file, a
// function that sets RunE on a command it was handed and one that removes
// a command from a tree, beside a constructor that sets its own command's
// fields, and makes sure the check above reports the two edits only.
func TestConstructionCheckFindsEdits(t *testing.T) {
	const src = `//go:build windows

package cli

func newLogs() *cobra.Command {
	cmd := &cobra.Command{Use: "logs"}
	cmd.RunE = runLogs
	return cmd
}

func patch(cmd *cobra.Command) {
	cmd.RunE = runOther
}

func prune(root *cobra.Command) {
	root.RemoveCommand(root.Commands()[0])
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "patch_windows.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok {
			got = append(got, constructionProblems(fset, fn)...)
		}
	}
	if len(got) != 2 {
		t.Errorf("found %d problems %v, want 2 (patch sets RunE, prune removes a command)", len(got), got)
	}
}

// isCommandLiteral reports whether e is &cobra.Command{...}.
func isCommandLiteral(e ast.Expr) bool {
	u, ok := e.(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return false
	}
	cl, ok := u.X.(*ast.CompositeLit)
	if !ok {
		return false
	}
	sel, ok := cl.Type.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "cobra" && sel.Sel.Name == "Command"
}

func exprString(sel *ast.SelectorExpr) string {
	if id, ok := sel.X.(*ast.Ident); ok {
		return id.Name + "." + sel.Sel.Name
	}
	return sel.Sel.Name
}

// TestEveryServerArgumentCompletes: a command whose first argument is a
// server (SERVER, or NAME of an existing one) completes it.
func TestEveryServerArgumentCompletes(t *testing.T) {
	root := newRootCmd(&clicore.Globals{})
	first := regexp.MustCompile(`^\S+ \[?(SERVER|NAME)`)
	// these name a new server, a built-in demo server or a registry entry,
	// not a configured one
	creates := map[string]bool{"mcpdeck mcp add": true, "mcpdeck mcp add-json": true, "mcpdeck demo-server": true, "mcpdeck registry show": true}
	completion.WalkCommands(root, func(cmd *cobra.Command) {
		if !first.MatchString(cmd.Use) || creates[cmd.CommandPath()] {
			return
		}
		if cmd.ValidArgsFunction == nil {
			t.Errorf("%s (%s) does not complete its server argument", cmd.CommandPath(), cmd.Use)
		}
	})
}
