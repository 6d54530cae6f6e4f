package status

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// blockerWords are the words of "why it cannot run" that only CannotRun
// may write, and the words the surfaces had before it (which must not
// come back): a surface that writes its own drifts from the others.
var blockerWords = []string{
	"blocked by policy rule", "blocked by managed policy", "awaiting your approval", "its definition has problems",
	"waiting for approval", "is not approved", "has a configuration problem", "the config has problems",
	"server is awaiting approval", "server was rejected",
}

// blockerCopies lists the string literals of f that word a blocker.
func blockerCopies(fset *token.FileSet, f *ast.File) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		for _, w := range blockerWords {
			if strings.Contains(s, w) {
				out = append(out, fset.Position(lit.Pos()).String()+": "+strconv.Quote(w))
			}
		}
		return true
	})
	return out
}

// TestCannotRunIsTheOneHome reads the ui tree's non-test files (every
// OS's): the words of why a server cannot run are CannotRun's alone; the
// TUI's detail view, its history and disabled actions, mcp get and auth
// ask it.
func TestCannotRunIsTheOneHome(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.Base(path) == "cannotrun.go" {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, c := range blockerCopies(fset, f) {
			t.Errorf("%s: words why a server cannot run; ask status.CannotRun", c)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d files: the walk missed the ui tree", files)
	}
}

// TestOneHomeCheckFindsOwnWords plants a surface that words a blocker
// itself, in a Windows-only file, and makes sure the check finds it.
func TestOneHomeCheckFindsOwnWords(t *testing.T) {
	const src = `//go:build windows

package mcpcmd

func whyNot(s model.Server) string {
	if !s.Approval.Approved() {
		return "no: waiting for approval"
	}
	return "yes"
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "get_windows.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := blockerCopies(fset, f); len(got) != 1 {
		t.Errorf("found %v, want the one planted wording", got)
	}
}

// TestEverySurfaceSaysTheSameReason: the TUI's detail view, its history
// and a disabled action, and the command line say a blocker with the
// same clause; the command line names the command that undoes it.
func TestEverySurfaceSaysTheSameReason(t *testing.T) {
	for _, b := range []model.Reason{
		{Kind: model.ReasonBlockedByPolicy, Rule: "deniedMcpServers"},
		{Kind: model.ReasonDisabledByYou},
		{Kind: model.ReasonAwaitingApproval},
		{Kind: model.ReasonAwaitingApproval, Changed: true},
		{Kind: model.ReasonRejectedByYou},
	} {
		tui := CannotRun(b, "x", InTUI)
		s := engine.ServerSnapshot{Name: "x", State: model.StateDisabled, Blockers: []model.Reason{b}}
		if why := Why(&s); len(why) != 1 || why[0].Text != Sentence(tui) {
			t.Errorf("%s: the detail view says %v, CannotRun %q", b.Kind, why, tui)
		}
		if got := Move(engine.Transition{To: model.StateDisabled, Cause: b}); got != tui {
			t.Errorf("%s: history says %q, CannotRun %q", b.Kind, got, tui)
		}
		cli := CannotRun(b, "x", InCLI)
		clause, _, _ := strings.Cut(tui, " (")
		if !strings.HasPrefix(cli, clause) {
			t.Errorf("%s: the command line says %q, the TUI %q", b.Kind, cli, tui)
		}
	}
	if got := CannotRun(model.Reason{Kind: model.ReasonDisabledByYou}, "x; rm", InCLI); got != "disabled by you (mcpdeck mcp enable 'x; rm')" {
		t.Errorf("the command to paste quotes the name: %q", got)
	}
}
