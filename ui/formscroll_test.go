package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
)

// manyFields is an elicitation schema of n string fields, field_01…
func manyFields(n int) json.RawMessage {
	props := make([]string, n)
	for i := range props {
		props[i] = fmt.Sprintf(`"field_%02d":{"type":"string","title":"Field %02d","description":"the %d. answer"}`, i+1, i+1, i+1)
	}
	return json.RawMessage(`{"type":"object","properties":{` + strings.Join(props, ",") + `}}`)
}

// TestFocusedFieldStaysVisible: moving through a long form, the field being
// edited is always on screen — a 13-field elicitation at 120×40, and at
// 60×15.
func TestFocusedFieldStaysVisible(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {60, 15}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				h := newHarness(t, newFakeEngine(fixture()), size[0], size[1])
				h.keys("esc")
				_ = elicitAsync(h, t.Context(), engine.ElicitRequest{Server: "notes", Mode: "form", Message: "Thirteen questions", Schema: manyFields(13)})
				for i := 1; i <= 13; i++ {
					if want := fmt.Sprintf("Field %02d", i); !strings.Contains(h.view(), want) {
						t.Fatalf("editing %s, but it is not on screen:\n%s", want, h.view())
					}
					if i < 13 {
						h.keys("tab")
					}
				}
				for i := 13; i >= 1; i-- { // and back up
					if want := fmt.Sprintf("Field %02d", i); !strings.Contains(h.view(), want) {
						t.Fatalf("back at %s, but it is not on screen:\n%s", want, h.view())
					}
					if i > 1 {
						h.keys("shift+tab")
					}
				}
				h.keys("esc")
			})
		})
	}
}
