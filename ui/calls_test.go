package ui

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
)

func TestCallToolForm(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("c")
		h.wantView("Call a tool of notes", "add_note", "list_notes")
		h.keys("enter")
		h.wantView("Call notes › add_note", "title *", "priority *")
		golden(t, "tool_form", h.view())
		h.keys("My note", "enter") // title
		h.keys("enter")            // body keeps its default
		h.keys("9", "enter")       // priority out of range: refused
		h.wantView("must be at most 5")
		h.keys("backspace", "3", "enter")
		h.keys("enter")            // pinned: not set
		h.keys("enter")            // color: default green
		h.keys("a, b", "enter")    // tags
		h.keys(`{"k":1}`, "enter") // meta as JSON
		h.wantView("✓ done", "called add_note")
		golden(t, "tool_result", h.view())
		want := map[string]any{
			"title": "My note", "body": "hello", "priority": int64(3), "color": "green",
			"tags": []any{"a", "b"}, "meta": map[string]any{"k": float64(1)},
		}
		if !reflect.DeepEqual(h.eng.lastArgs, want) {
			t.Fatalf("args %#v\nwant %#v", h.eng.lastArgs, want)
		}
		h.keys("esc")
		if len(h.m.modals) != 0 {
			t.Fatal("result still open")
		}
	})
}

func TestCallToolFromDetailAndCancel(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		f := newFakeEngine(fixture())
		release := make(chan struct{})
		f.callTool = func(ctx context.Context, _, _ string, _ map[string]any, progress func(engine.Progress)) (engine.ToolResult, error) {
			progress(engine.Progress{Progress: 5, Total: 10, Message: "halfway"})
			select {
			case <-ctx.Done():
				return engine.ToolResult{}, ctx.Err()
			case <-release:
				return engine.ToolResult{Structured: json.RawMessage(`{"ok":true}`)}, nil
			}
		}
		h := newHarness(t, f, 100, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("enter", "tab", "j", "enter") // Tools tab, list_notes, enter = call
		h.wantView("Call notes › list_notes", "No arguments", "enter call • esc cancel")
		h.keys("enter")
		h.wantView("running…", "50%", "halfway")
		golden(t, "tool_running", h.view())
		h.keys("esc")
		h.wantView("list_notes  cancelled", "you cancelled the request")
		if strings.Contains(h.view(), "✗ error") {
			t.Fatalf("a cancel by the person is shown as an error:\n%s", h.view())
		}
		h.keys("esc", "c")
		h.keys("enter")
		close(release)
		h.settle()
		h.wantView("structured content:", `"ok": true`)
	})
}

func TestCallToolValidatesAgainstSchema(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		for i := range s.Servers {
			if s.Servers[i].Name == "notes" {
				s.Servers[i].Tools = []engine.Tool{{Name: "code", InputSchema: json.RawMessage(
					`{"type":"object","properties":{"code":{"type":"string","pattern":"^[A-Z]{3}$"}},"required":["code"]}`)}}
			}
		}
		h := newHarness(t, newFakeEngine(s), 100, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("c", "enter", "abc", "enter")
		h.wantView("the arguments do not match the schema: code: 'abc' does not match pattern '^[A-Z]{3}$'")
		if strings.Contains(h.view(), "mcpdeck:input.json") {
			t.Fatalf("the validator's internals are shown:\n%s", h.view())
		}
		if slices.Contains(h.eng.Actions(), "call notes code") {
			t.Fatal("invalid arguments were sent")
		}
		h.keys("backspace", "backspace", "backspace", "ABC", "enter")
		if !slices.Contains(h.eng.Actions(), "call notes code") {
			t.Fatalf("valid arguments not sent: %v", h.eng.Actions())
		}
	})
}

func TestReadResourceAndTemplate(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("R", "enter")
		h.wantView("contents of notes://all")
		h.keys("esc", "R", "j", "enter")
		h.wantView("Read notes › note", "notes://{id}", "id *")
		h.keys("enter")
		h.wantView("id: required")
		h.keys("a b/c", "enter") // percent-encoded as the template says
		h.wantView("contents of notes://a%20b%2Fc")
	})
}

func TestGetPrompt(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("p", "enter", "enter")
		h.wantView("required")
		h.keys("go", "enter", "enter")
		h.wantView("[user]", "summarize map[topic:go]")
		if !reflect.DeepEqual(h.eng.prompt, map[string]string{"topic": "go"}) {
			t.Fatalf("args %v", h.eng.prompt)
		}
	})
}

func TestDeniedToolIsNotCalled(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Servers[5].Tools[0].Denied = true
		h := newHarness(t, newFakeEngine(s), 100, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("c", "enter")
		h.wantView("mcp__notes__add_note is denied by your permission rules")
		if len(h.eng.Actions()) != 0 {
			t.Fatalf("engine got %v", h.eng.Actions())
		}
	})
}

func TestFormsFitSmallTerminal(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 60, 15)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("c", "enter")
		golden(t, "small_tool_form_60x15", h.view())
		h.keys("esc")
		_ = elicitAsync(h, t.Context(), engine.ElicitRequest{Server: "notes", Mode: "form", Message: "Who is asking?", Schema: elicitSchema})
		golden(t, "small_elicit_form_60x15", h.view())
		for _, l := range strings.Split(h.view(), "\n") {
			if screenWidth(l) > 60 {
				t.Fatalf("line too wide: %q", l)
			}
		}
		h.keys("esc")
	})
}
