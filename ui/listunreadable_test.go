package ui

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// halfSaved is the problem of a .mcp.json broken mid-edit, as the engine
// publishes it.
var halfSaved = model.Problem{
	Scope: model.ScopeProject, File: "/work/.mcp.json", Line: 9, Col: 5,
	Message: "invalid JSON: unexpected end of file (truncated JSON?)",
}

// TestUnreadableProjectFileIsARow: the project group is headed by the
// file's row, place first and wrapped at 60 columns, never cut; the
// servers the engine kept stay under it.
func TestUnreadableProjectFileIsARow(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Problems = []model.Problem{halfSaved}
		h := newHarness(t, newFakeEngine(s), 60, 15)
		h.keys("esc") // decide the approvals later
		v := h.view()
		flat := strings.Join(strings.Fields(v), " ")
		if !strings.Contains(flat, "project — .mcp.json unreadable (9:5): invalid JSON: unexpected end of file (truncated JSON?)") {
			t.Errorf("the row is missing or cut:\n%s", v)
		}
		golden(t, "list_unreadable_project_60x15", v)
	})
}

// TestOnlyAnUnreadableFile: with nothing else configured, the screen shows
// the broken file, not "no MCP servers configured".
func TestOnlyAnUnreadableFile(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(engine.Snapshot{Seq: 1, At: t0, Problems: []model.Problem{halfSaved}}), 120, 20)
		h.wantView("project — .mcp.json unreadable (9:5): invalid JSON: unexpected end of file (truncated JSON?)")
		if v := h.view(); strings.Contains(v, "no MCP servers configured") {
			t.Errorf("a broken file reads as an empty configuration:\n%s", v)
		}
	})
}

// TestUnreadableRowIsTerminalSafe: the row's file name and message come
// from outside; the frame that shows them cannot drive the terminal.
func TestUnreadableRowIsTerminalSafe(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		p := model.Problem{Scope: model.ScopeProject, File: hx("/work/.mcp.json"), Line: 9, Col: 5, Message: hx("invalid JSON ")}
		h := newHarness(t, newFakeEngine(engine.Snapshot{Seq: 1, At: t0, Problems: []model.Problem{p}}), 100, 20)
		assertScreenSafe(t, "unreadable row", h.view())
		h.wantView("project — .mcp.json")
	})
}
