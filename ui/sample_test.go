package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
)

var sampleReq = engine.SampleRequest{
	Server: "notes", Request: "tools/call summarize",
	SystemPrompt: "You are terse.",
	Messages: []engine.SampleMessage{
		{Role: "user", Text: "Summarize this page\x1b[2J please"},
		{Role: "user", Text: "[image 12 KB png]"},
	},
	MaxTokens: 100, Temperature: 0.7, Preferences: "models like claude; cost 0.5", Tools: []string{"search"},
}

func sampleAsync(h *harness, ctx context.Context, req engine.SampleRequest) <-chan engine.SampleResponse {
	out := make(chan engine.SampleResponse, 1)
	go func() {
		r, _ := h.bridge.Sample(ctx, req)
		out <- r
	}()
	h.settle()
	return out
}

// TestSamplingPrompt: the prompt shows the whole request (sanitized), and
// each choice answers: enter then a typed reply sends it, A allows always,
// x declines, X declines for good; a command writes the reply without the
// editor; an "always" server opens the editor at once.
func TestSamplingPrompt(t *testing.T) {
	t.Run("reply once", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			h := newHarness(t, newFakeEngine(fixture()), 100, 30)
			h.keys("esc")
			got := sampleAsync(h, t.Context(), sampleReq)
			h.wantView("Sampling request from notes (for tools/call summarize)", "system: You are terse.",
				"user: Summarize this page please", "[image 12 KB png]", "max tokens 100 · temperature 0.7",
				"prefers models like claude; cost 0.5", "tools offered: search", `You write the reply (sent as model "human").`,
				"enter reply once", "X never for this server")
			if strings.Contains(h.view(), "\x1b[2J") {
				t.Fatal("the server's escape sequence reached the screen")
			}
			h.keys("?")
			h.wantView("This prompt", "never for this server")
			h.keys("esc", "enter")
			h.wantView("Your reply (model \"human\")", "ctrl+s send")
			h.keys("Is it about cats? q", "ctrl+s")
			if r := <-got; r.Choice != engine.SampleOnce || r.Text != "Is it about cats? q" {
				t.Fatalf("got %+v", r)
			}
			if len(h.m.modals) != 0 {
				t.Fatal("prompt still open")
			}
		})
	})
	for _, c := range []struct{ key, choice string }{{"x", engine.SampleDecline}, {"X", engine.SampleNever}, {"esc", engine.SampleDecline}} {
		t.Run(c.key, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				h := newHarness(t, newFakeEngine(fixture()), 100, 30)
				h.keys("esc")
				got := sampleAsync(h, t.Context(), sampleReq)
				h.keys(c.key)
				if r := <-got; r.Choice != c.choice {
					t.Fatalf("got %+v, want %s", r, c.choice)
				}
			})
		})
	}
	t.Run("always with a command", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			h := newHarness(t, newFakeEngine(fixture()), 100, 30)
			h.keys("esc")
			req := sampleReq
			req.Command = "reply.sh"
			got := sampleAsync(h, t.Context(), req)
			h.wantView("The command reply.sh writes the reply.")
			h.keys("A")
			if r := <-got; r.Choice != engine.SampleAlways || r.Text != "" {
				t.Fatalf("got %+v", r)
			}
		})
	})
	t.Run("already allowed", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			h := newHarness(t, newFakeEngine(fixture()), 100, 30)
			h.keys("esc")
			req := sampleReq
			req.Allowed = true
			got := sampleAsync(h, t.Context(), req)
			h.wantView("Your reply (model \"human\")")
			h.keys("ok", "ctrl+s")
			if r := <-got; r.Choice != engine.SampleOnce || r.Text != "ok" {
				t.Fatalf("got %+v", r)
			}
		})
	})
	t.Run("esc in the editor declines", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			h := newHarness(t, newFakeEngine(fixture()), 100, 30)
			h.keys("esc")
			got := sampleAsync(h, t.Context(), sampleReq)
			h.keys("enter", "half a reply")
			h.wantView("esc decline")
			h.keys("esc")
			if r := <-got; r.Choice != engine.SampleDecline || r.Text != "" {
				t.Fatalf("got %+v", r)
			}
		})
	})
	t.Run("server gives up", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			h := newHarness(t, newFakeEngine(fixture()), 100, 30)
			h.keys("esc")
			ctx, cancel := context.WithCancel(t.Context())
			got := sampleAsync(h, ctx, sampleReq)
			cancel()
			h.settle()
			<-got
			if len(h.m.modals) != 0 {
				t.Fatal("prompt still shown after the request ended")
			}
			h.wantView("notes withdrew its sampling request")
		})
	})
}
