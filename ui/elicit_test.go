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

var elicitSchema = json.RawMessage(`{"type":"object","properties":{
	"name":{"type":"string","title":"Your name"},
	"count":{"type":"integer","default":2},
	"ok":{"type":"boolean","default":true}},"required":["name"]}`)

func elicitAsync(h *harness, ctx context.Context, req engine.ElicitRequest) <-chan engine.ElicitResponse {
	out := make(chan engine.ElicitResponse, 1)
	go func() {
		r, _ := h.bridge.Elicit(ctx, req)
		out <- r
	}()
	h.settle()
	return out
}

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

// TestURLElicitation: the URL a server asks the person to visit is shown
// as a sign-in's is: under the box, from the first column, unbroken by any
// border or indent however long (golden); y copies exactly it, o opens it,
// enter says done.
func TestURLElicitation(t *testing.T) {
	req := engine.ElicitRequest{
		Server: "remote-api", Mode: "url", Message: "Sign in to continue",
		URL: "https://auth.example.com/authorize?client_id=mcpdeck&state=abc123" +
			"&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcallback%2Fafter%2Fthe%2Fsign-in&scope=files.read+files.write",
	}
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		got := elicitAsync(h, t.Context(), req)
		h.wantView("remote-api needs you to visit a page", "It leads to auth.example.com.", "y copy URL", "o open in browser")
		v := h.view()
		if !strings.Contains(strings.ReplaceAll(v, "\n", ""), req.URL) {
			t.Fatalf("the URL is not on screen unbroken:\n%s", v)
		}
		for _, l := range strings.Split(v, "\n") {
			if strings.Contains(l, "client_id") && strings.ContainsAny(l, "│ ") {
				t.Errorf("a border or a blank on the URL's line: %q", l)
			}
		}
		golden(t, "elicit_url", v)
		h.keys("y")
		if !slices.Equal(h.copied, []string{req.URL}) {
			t.Fatalf("copied %q", h.copied)
		}
		h.wantView("copied the URL")
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
		h.wantView("It leads to evil.example.")
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

// TestQuitAnswersEveryWaitingRequest: quitting gives every request shown
// to the person its fallback answer at once, whatever its prompt: a form
// and a URL elicitation are cancelled, a sampling request declined; a
// request the server withdrew closes its prompt and only that one.
func TestQuitAnswersEveryWaitingRequest(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		form := elicitAsync(h, t.Context(), engine.ElicitRequest{Server: "notes", Mode: "form", Message: "Who?", Schema: elicitSchema})
		url := elicitAsync(h, t.Context(), engine.ElicitRequest{Server: "remote-api", Mode: "url", Message: "Sign in", URL: "https://auth.example.com/a"})
		gone, withdraw := context.WithCancel(t.Context())
		_ = elicitAsync(h, gone, engine.ElicitRequest{Server: "notes", Mode: "url", Message: "Gone soon", URL: "https://x.example/"})
		sample := sampleAsync(h, t.Context(), sampleReq)
		if n := len(h.m.modals); n != 4 {
			t.Fatalf("%d prompts open, want 4", n)
		}
		withdraw()
		h.settle()
		h.wantView("notes withdrew its request")
		if n := len(h.m.modals); n != 3 {
			t.Fatalf("%d prompts open after one was withdrawn, want 3", n)
		}
		h.keys("ctrl+c")
		if !h.quit {
			t.Fatal("ctrl+c did not quit")
		}
		for what, ch := range map[string]<-chan engine.ElicitResponse{"form": form, "url": url} {
			select {
			case r := <-ch:
				if r.Action != "cancel" {
					t.Errorf("the %s elicitation got %+v, want cancel", what, r)
				}
			default:
				t.Errorf("the %s elicitation was not answered on quit", what)
			}
		}
		select {
		case r := <-sample:
			if r.Choice != engine.SampleDecline {
				t.Errorf("the sampling request got %+v, want decline", r)
			}
		default:
			t.Error("the sampling request was not answered on quit")
		}
	})
}

// titledEnumSchema asks with MCP elicitation's titled enums, as
// server-everything does: a single choice as oneOf const/title, a multiple
// choice as items.anyOf const/title, and the older enum with enumNames.
var titledEnumSchema = json.RawMessage(`{"type":"object","properties":{
	"hero":{"type":"string","title":"Hero","oneOf":[
		{"const":"hero-1","title":"Superman"},{"const":"hero-2","title":"Green Lantern"},{"const":"hero-3","title":"Wonder Woman"}],
		"default":"hero-1"},
	"fish":{"type":"array","title":"Fish","items":{"anyOf":[
		{"const":"fish-1","title":"Tuna"},{"const":"fish-2","title":"Salmon"},{"const":"fish-3","title":"Trout"}]},
		"default":["fish-1"]},
	"pet":{"type":"string","title":"Pet","enum":["pet-1","pet-2"],"enumNames":["Cats","Dogs"],"default":"pet-1"}},
	"required":["hero"]}`)

// TestTitledEnumsArePickers: titled enums are chosen by their titles, in
// pickers, never as raw JSON or ids; the answer carries the values.
func TestTitledEnumsArePickers(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		got := elicitAsync(h, t.Context(), engine.ElicitRequest{Server: "notes", Mode: "form", Message: "Pick some", Schema: titledEnumSchema})
		noIDs := func() {
			t.Helper()
			if v := h.view(); strings.Contains(v, "hero-") || strings.Contains(v, "fish-") || strings.Contains(v, "pet-") || strings.Contains(v, "(JSON)") {
				t.Fatalf("an id or raw JSON is shown:\n%s", v)
			}
		}
		h.wantView("Hero (hero) *", "Superman")
		noIDs()
		golden(t, "elicit_titled_enums", h.view())
		h.keys("right")
		h.wantView("Green Lantern")
		h.keys("enter")
		h.wantView("Tuna", "Salmon", "Trout")
		noIDs()
		h.keys("down", "x", "enter")
		h.wantView("Cats")
		noIDs()
		h.keys("right")
		h.wantView("Dogs")
		h.keys("enter")
		r := <-got
		want := engine.ElicitResponse{Action: "accept", Content: map[string]any{"hero": "hero-2", "fish": []any{"fish-1", "fish-2"}, "pet": "pet-2"}}
		if !reflect.DeepEqual(r, want) {
			t.Fatalf("got %#v, want %#v", r, want)
		}
	})
}
