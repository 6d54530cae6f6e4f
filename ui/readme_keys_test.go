package ui

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// readmeKeys returns the keys the README's TUI key table names, each as
// the footer writes it ("ctrl+r", "1–9"); text in parentheses is a note,
// and "/" between keys separates them unless it is the cell's only key.
func readmeKeys(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "\n| key | action |\n|---|---|\n")
	if !ok {
		t.Fatal("README.md has no TUI key table (| key | action |)")
	}
	var keys []string
	for _, row := range strings.Split(table, "\n") {
		if !strings.HasPrefix(row, "| ") {
			break
		}
		cell := strings.TrimSpace(strings.SplitN(row, "|", 3)[1])
		cell = regexp.MustCompile(`\(.*?\)`).ReplaceAllString(cell, "")
		if cell == "/" {
			keys = append(keys, "/")
			continue
		}
		for _, word := range strings.FieldsFunc(cell, func(r rune) bool { return r == ' ' || r == ',' }) {
			for _, k := range strings.Split(word, "/") {
				if k != "" {
					keys = append(keys, k)
				}
			}
		}
	}
	return keys
}

// helpKeys splits a binding's help key ("tab/→") into the keys it names.
func helpKeys(b key.Binding) []string {
	h := b.Help().Key
	if h == "/" {
		return []string{"/"}
	}
	return strings.Split(h, "/")
}

// TestReadmeKeyTableIsTheKeyMap: the README's TUI key table names every
// key of the action table (each action the help screen lists) and no key
// the key map does not have, so a key added, moved or dropped in the key
// map fails here until the README says so.
func TestReadmeKeyTableIsTheKeyMap(t *testing.T) {
	km := DefaultKeyMap()
	documented := readmeKeys(t)
	var known []string
	for _, a := range actionTable() {
		keys := helpKeys(a.binding(&km))
		known = append(known, keys...)
		if a.help == notListed {
			continue
		}
		for _, k := range keys {
			if !slices.Contains(documented, k) {
				t.Errorf("README's key table lacks %q (%s)", k, a.verb)
			}
		}
	}
	for _, b := range []key.Binding{km.Up, km.Down, km.Top, km.Bottom, km.PageUp, km.PageDown} {
		keys := helpKeys(b)
		known = append(known, keys...)
		for _, k := range keys {
			if !slices.Contains(documented, k) {
				t.Errorf("README's key table lacks the movement key %q", k)
			}
		}
	}
	for _, k := range documented {
		if !slices.Contains(known, k) {
			t.Errorf("README's key table names %q, which the key map does not have", k)
		}
	}
}
