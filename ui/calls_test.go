package ui

import (
	"context"
	"encoding/json"
	"fmt"
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
		h.wantView("the arguments do not match the schema")
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

func TestTemplateForm(t *testing.T) {
	tpl, sf := templateForm("https://x.example/{+path}/items{?q,page}")
	if tpl == nil {
		t.Fatal("no form for a valid template")
	}
	var names []string
	for _, f := range sf.fields {
		names = append(names, fmt.Sprintf("%s required=%v", f.name, f.required))
	}
	if got := strings.Join(names, ", "); got != "path required=true, q required=false, page required=false" {
		t.Fatalf("fields: %s", got)
	}
	uri, err := expandTemplate(tpl, map[string]any{"path": "a/b", "q": "go lang"})
	if err != nil || uri != "https://x.example/a/b/items?q=go%20lang" {
		t.Fatalf("expand: %q, %v", uri, err)
	}
	if tpl, _ := templateForm("notes://all"); tpl != nil {
		t.Fatal("a URI without variables got a form")
	}
	if tpl, _ := templateForm("notes://{unclosed"); tpl != nil {
		t.Fatal("a broken template got a form")
	}
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

func elicitAsync(h *harness, ctx context.Context, req engine.ElicitRequest) <-chan engine.ElicitResponse {
	out := make(chan engine.ElicitResponse, 1)
	go func() {
		r, _ := h.bridge.Elicit(ctx, req)
		out <- r
	}()
	h.settle()
	return out
}

var elicitSchema = json.RawMessage(`{"type":"object","properties":{
	"name":{"type":"string","title":"Your name"},
	"count":{"type":"integer","default":2},
	"ok":{"type":"boolean","default":true}},"required":["name"]}`)

func TestFormElicitation(t *testing.T) {
	req := engine.ElicitRequest{Server: "notes", Mode: "form", Message: "Who is asking?", Schema: elicitSchema}
	t.Run("accept", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			h := newHarness(t, newFakeEngine(fixture()), 100, 30)
			h.keys("esc")
			got := elicitAsync(h, t.Context(), req)
			h.wantView("Request from notes", "Who is asking?", "Your name (name) *", "ctrl+d decline")
			golden(t, "elicit_form", h.view())
			h.keys("Ada", "enter", "enter")
			h.wantView("enter accept • shift+tab previous • ctrl+d decline") // on the last field
			h.keys("enter")
			r := <-got
			want := engine.ElicitResponse{Action: "accept", Content: map[string]any{"name": "Ada", "count": int64(2), "ok": true}}
			if !reflect.DeepEqual(r, want) {
				t.Fatalf("got %#v", r)
			}
		})
	})
	for _, c := range []struct{ key, action string }{{"ctrl+d", "decline"}, {"esc", "cancel"}} {
		t.Run(c.action, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				h := newHarness(t, newFakeEngine(fixture()), 100, 30)
				h.keys("esc")
				got := elicitAsync(h, t.Context(), req)
				h.keys(c.key)
				if r := <-got; r.Action != c.action {
					t.Fatalf("got %v", r)
				}
			})
		})
	}
	t.Run("server gives up", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			h := newHarness(t, newFakeEngine(fixture()), 100, 30)
			h.keys("esc")
			ctx, cancel := context.WithCancel(t.Context())
			got := elicitAsync(h, ctx, req)
			cancel()
			h.settle()
			<-got
			if len(h.m.modals) != 0 {
				t.Fatal("prompt still shown after the request ended")
			}
			h.wantView("notes withdrew its request")
		})
	})
	t.Run("over a running call", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			f := newFakeEngine(fixture())
			h := newHarness(t, f, 100, 30)
			f.callTool = func(ctx context.Context, _, _ string, _ map[string]any, _ func(engine.Progress)) (engine.ToolResult, error) {
				r, err := h.bridge.Elicit(ctx, req)
				if err != nil {
					return engine.ToolResult{}, err
				}
				return engine.ToolResult{Content: []engine.Content{{Kind: "text", Text: "hello " + r.Content["name"].(string)}}}, nil
			}
			h.keys("esc")
			h.selectServer("notes")
			h.keys("c", "j", "enter", "enter")
			h.wantView("Who is asking?")
			h.keys("Bob", "enter", "enter", "enter")
			h.wantView("hello Bob")
		})
	})
}

func TestURLElicitation(t *testing.T) {
	req := engine.ElicitRequest{
		Server: "remote-api", Mode: "url", Message: "Sign in to continue",
		URL: "https://auth.example.com/authorize?client_id=mcpdeck&state=abc123",
	}
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		got := elicitAsync(h, t.Context(), req)
		h.wantView("remote-api needs you to visit a page", "It leads to auth.example.com:", req.URL, "o open in browser")
		golden(t, "elicit_url", h.view())
		h.keys("o")
		if !slices.Equal(h.opened, []string{req.URL}) {
			t.Fatalf("opened %v", h.opened)
		}
		h.wantView("opened in your browser")
		h.keys("enter")
		if r := <-got; r.Action != "accept" {
			t.Fatalf("got %v", r)
		}
	})
}

// TestURLElicitationControlCharacters: the URL is the server's text; escape
// sequences in it are not drawn, the browser gets it as sent (it refuses
// anything but http(s)).
func TestURLElicitationControlCharacters(t *testing.T) {
	req := engine.ElicitRequest{Server: "remote-api", Mode: "url", Message: "Sign in", URL: "https://evil.example/\x1b[2J\x1b]0;pwned\x07x"}
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		got := elicitAsync(h, t.Context(), req)
		h.wantView("It leads to evil.example:")
		if v := h.view(); strings.ContainsRune(v, 0x1b) || strings.ContainsRune(v, 0x07) {
			t.Fatalf("control characters reached the screen: %q", v)
		}
		h.keys("esc")
		if r := <-got; r.Action != "cancel" {
			t.Fatalf("got %v", r)
		}
	})
}

func TestURLElicitationDeclineAndCancel(t *testing.T) {
	req := engine.ElicitRequest{Server: "remote-api", Mode: "url", Message: "Sign in", URL: "https://example.com/x"}
	for _, c := range []struct{ key, action string }{{"ctrl+d", "decline"}, {"esc", "cancel"}} {
		t.Run(c.action, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				h := newHarness(t, newFakeEngine(fixture()), 100, 30)
				h.keys("esc")
				got := elicitAsync(h, t.Context(), req)
				h.keys(c.key)
				if r := <-got; r.Action != c.action {
					t.Fatalf("got %v", r)
				}
				if len(h.opened) != 0 {
					t.Fatal("a browser was opened")
				}
			})
		})
	}
}

func TestElicitBridgeClose(t *testing.T) {
	b := NewElicitBridge()
	b.Close()
	r, err := b.Elicit(context.Background(), engine.ElicitRequest{Mode: "form"})
	if err != nil || r.Action != "cancel" {
		t.Fatalf("got %v, %v", r, err)
	}
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
			if lipglossWidth(l) > 60 {
				t.Fatalf("line too wide: %q", l)
			}
		}
		h.keys("esc")
	})
}
