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

// TestUnreadablePrivateState: the person's private state of the project
// broken is the local group's heading, and a project server whose
// approval it can no longer tell is not asked about as new; A on it says
// why it waits instead of failing on the file.
func TestUnreadablePrivateState(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		p := model.Problem{Scope: model.ScopeLocal, File: "/home/me/.config/mcpdeck/projects/work-1a2b.json", Line: 1, Col: 3, Message: "invalid JSON: invalid character 'b'"}
		s.Problems = []model.Problem{p}
		for _, i := range []int{2, 3} { // repo-tools, fresh: their decisions are unknown
			srv := &s.Servers[i]
			why := p
			why.Scope, why.Server, why.Message = 0, srv.Name, "your decisions on this project cannot be read: "+p.Message
			srv.Approval = model.Approval{Status: model.ApprovalUnknown}
			srv.State, srv.Problems = model.StateFailed, []model.Problem{why}
			srv.Error = why.Error()
			srv.Reason = model.Reason{Kind: model.ReasonConfigProblem, Problem: &srv.Problems[0], Error: srv.Error}
			srv.Blockers = []model.Reason{srv.Reason}
		}
		h := newHarness(t, newFakeEngine(s), 100, 24)
		v := h.view()
		if strings.Contains(v, "project server") {
			t.Fatalf("a server whose decision is unknown is asked about as new:\n%s", v)
		}
		h.wantView("local — work-1a2b.json unreadable (1:3): invalid JSON: invalid character 'b'")
		golden(t, "list_unreadable_private_state", v)
		h.selectServer("fresh")
		h.keys("A")
		h.wantView("your decisions on this project cannot be read")
		if a := h.eng.Actions(); len(a) != 0 {
			t.Fatalf("actions %v", a)
		}
	})
}
