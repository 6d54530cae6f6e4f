package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestEveryScreenFitsEverySize resizes through many terminal sizes on every
// screen and checks that the frame is exactly the terminal's size.
func TestEveryScreenFitsEverySize(t *testing.T) {
	screens := []struct {
		name string
		keys []string
	}{
		{"approval", nil},
		{"list", []string{"esc"}},
		{"filter", []string{"esc", "/", "o"}},
		{"detail", []string{"esc", "G", "enter"}},
		{"tools", []string{"esc", "G", "k", "k", "enter", "tab"}},
		{"stderr", []string{"esc", "G", "k", "k", "enter", "5"}},
		{"help", []string{"esc", "?"}},
		{"form", []string{"esc", "G", "k", "k", "c", "enter"}},
		{"result", []string{"esc", "G", "k", "k", "c", "j", "enter", "enter"}},
	}
	for _, sc := range screens {
		t.Run(sc.name, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				h := newHarness(t, newFakeEngine(fixture()), 100, 30)
				h.keys(sc.keys...)
				if sc.name == "form" || sc.name == "result" {
					if len(h.m.modals) == 0 {
						t.Fatalf("no modal open:\n%s", h.view())
					}
				}
				for w := 60; w <= 160; w += 13 {
					for ht := 15; ht <= 50; ht += 7 {
						h.send(tea.WindowSizeMsg{Width: w, Height: ht})
						lines := strings.Split(h.view(), "\n")
						if len(lines) != ht {
							t.Fatalf("%dx%d: %d lines", w, ht, len(lines))
						}
						for i, l := range lines {
							if lw := screenWidth(l); lw > w {
								t.Fatalf("%dx%d: line %d is %d wide: %q", w, ht, i, lw, l)
							}
						}
					}
				}
			})
		})
	}
}

func TestListScrollsWithHundredsOfServers(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(bigSnapshot(300, 0)), 100, 20)
		h.keys("esc")
		visible := func() {
			t.Helper()
			sel := h.m.list.Selected()
			if sel == nil || !strings.Contains(h.view(), "› "+glyphPlain(sel.State)) {
				t.Fatalf("selected row not on screen:\n%s", h.view())
			}
			if !strings.Contains(h.view(), sel.Name) {
				t.Fatalf("selected %s not on screen:\n%s", sel.Name, h.view())
			}
		}
		for range 7 {
			h.keys("pgdown")
			visible()
		}
		h.keys("G")
		visible()
		if got := h.m.list.Selected().Name; got == "" {
			t.Fatal("no selection at the bottom")
		}
		for range 40 {
			h.keys("k")
		}
		visible()
		h.keys("g")
		visible()
		if v := h.view(); !strings.Contains(v, "dynamic") {
			t.Fatalf("the first group's heading is not shown at the top:\n%s", v)
		}
	})
}

// glyphPlain is the state glyph without colour.
func glyphPlain(s model.State) string {
	return [...]string{"◌", "●", "✗", "◆", "○"}[s]
}
