package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
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

// TestActiveTabIsVisibleAt60x15: on a 60×15 terminal the detail view's
// tab bar shows the tabs around the current one, by their whole names,
// the current tab always whole, with ‹ and › where tabs are left out.
func TestActiveTabIsVisibleAt60x15(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		h := newHarness(t, newFakeEngine(s), 60, 15)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("enter", "8")
		h.wantView("‹ Prompts 1 Stderr Instructions Skills 0 [Logs] Traffic")

		for i := range 120 {
			s.Servers[5].Tools = append(s.Servers[5].Tools, engine.Tool{Name: fmt.Sprintf("t%03d", i)})
			s.Servers[5].Resources = append(s.Servers[5].Resources, engine.Resource{URI: fmt.Sprintf("notes://%d", i)})
		}
		h.eng.publish(s)
		h.settle()
		for i, want := range []string{"[Overview]", "[Tools 123]", "[Resources 122]", "[Prompts 1]", "[Stderr]", "[Instructions]", "[Skills 0]", "[Logs]", "[Traffic]"} {
			h.keys(string(rune('1' + i)))
			bar := strings.Split(h.view(), "\n")[2]
			if !strings.Contains(bar, want) {
				t.Fatalf("tab %d: the bar lacks %q: %q", i+1, want, bar)
			}
			if i == 0 && !strings.HasSuffix(bar, "›") || i == 8 && !strings.HasPrefix(bar, "‹") {
				t.Errorf("tab %d: the bar does not mark the tabs left out: %q", i+1, bar)
			}
		}
		golden(t, "small_detail_traffic_60x15", h.view())
	})
}

// TestNoWordIsSplitAt60x15: on a 60×15 terminal a word that fits on a line
// is never broken across two (not at a hyphen either), and a path too long
// for a line breaks after a slash, not inside a name.
func TestNoWordIsSplitAt60x15(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		notes := &s.Servers[5]
		notes.Target = "/work/main/testdata/npm/node_modules/.bin/mcp-server-everything stdio"
		notes.ServerInfo = engine.Implementation{Name: "mcp-servers/everything", Version: "2.0.0"}
		h := newHarness(t, newFakeEngine(s), 60, 15)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("enter")
		h.wantView("Server     mcp-servers/everything 2.0.0 · protocol", "2025-11-25",
			"Target     /work/main/testdata/npm/node_modules/.bin/", "mcp-server-everything stdio")
		golden(t, "small_detail_overview_60x15", h.view())

		s.Servers[4].Blockers[1].Command = "@modelcontextprotocol/server-everything-extended" // broken
		h.eng.publish(s)
		h.settle()
		h.keys("esc")
		h.selectServer("broken")
		h.keys("enter", "pgdown")
		h.wantView("│ @modelcontextprotocol/server-everything-extended not") // in the why panel
	})
}
