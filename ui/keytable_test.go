package ui

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// updateReadme rewrites the README's key table; go generate ./ui sets it
// (the directive is on actionTable).
var updateReadme = flag.Bool("update-readme", false, "write README.md's TUI key table from the action table")

// The README's key table sits between these lines; everything between
// them is written by go generate ./ui.
const (
	keyTableStart = "<!-- The TUI's keys: written by `go generate ./ui` from the action table (ui/actiontable.go). -->\n"
	keyTableEnd   = "<!-- end of the TUI's keys -->\n"
)

// keyTable is the README's TUI key table in the manner of lazygit's
// cheatsheet: the movement keys, then one row per action the help screen
// lists, in the table's order, each with the key the key map gives it
// and the action's doc.
func keyTable(km KeyMap) string {
	var b strings.Builder
	b.WriteString("| key | action |\n|---|---|\n")
	row := func(keys, doc string) {
		b.WriteString("| " + keys + " | " + strings.ReplaceAll(doc, "|", `\|`) + " |\n")
	}
	var move []string
	for _, k := range []key.Binding{km.Up, km.Down, km.Top, km.Bottom, km.PageUp, km.PageDown} {
		move = append(move, k.Help().Key)
	}
	row(strings.Join(move, " "), "move")
	for _, a := range actionTable() {
		if a.help != notListed {
			row(a.binding(&km).Help().Key, a.doc)
		}
	}
	return b.String()
}

// TestReadmeKeyTableIsGenerated: the README's TUI key table is the one
// keyTable writes from the action table, so a key added, moved or dropped
// in the key map, or an action's doc changed, fails here until go
// generate ./ui has written it. Each listed action has a doc.
func TestReadmeKeyTableIsGenerated(t *testing.T) {
	for _, a := range actionTable() {
		if a.help != notListed && a.doc == "" {
			t.Errorf("action %q has no doc for the README's key table", a.verb)
		}
	}
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	before, rest, ok := strings.Cut(readme, keyTableStart)
	current, after, ok2 := strings.Cut(rest, keyTableEnd)
	if !ok || !ok2 {
		t.Fatalf("README.md has no generated key table: put the lines\n%s%sin it and run go generate ./ui", keyTableStart, keyTableEnd)
	}
	want := keyTable(DefaultKeyMap())
	if *updateReadme {
		if current != want {
			if err := os.WriteFile("../README.md", []byte(before+keyTableStart+want+keyTableEnd+after), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	if current != want {
		t.Errorf("README.md's key table is not the action table's: run go generate ./ui\nREADME:\n%s\naction table:\n%s", current, want)
	}
}

// TestKeyTableFollowsTheKeyMap: a key remapped in the key map, or a doc
// changed, is a different table (so the check above fails on a README
// that was not regenerated).
func TestKeyTableFollowsTheKeyMap(t *testing.T) {
	km := DefaultKeyMap()
	base := keyTable(km)
	km.Actions = map[ActionID]key.Binding{ActReload: key.NewBinding(key.WithKeys("f5"), key.WithHelp("f5", "reload config"))}
	remapped := keyTable(km)
	if remapped == base || !strings.Contains(remapped, "| f5 | reload the config files |") {
		t.Errorf("remapping reload to f5 did not change the table:\n%s", remapped)
	}
}
