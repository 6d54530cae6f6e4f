package ui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// hostile is in every string of the hostile fixture: it would write the
// clipboard (OSC 52), erase the line, return the carriage, reverse the text
// (U+202E), send C1 controls, hide characters (tag), move the cursor up and
// break the line.
const hostile = "\x1b]52;c;ZXZpbA==\x07\x1b[2K\r\u202e\u0085\u009b31m\U000E0041\x1b[1A\nend"

// h returns s followed by the hostile text.
func hx(s string) string { return s + hostile }

// hostileFixture is a snapshot whose every outside string carries hostile:
// names (a config key), targets, URLs, args, env, headers, sources, errors,
// reasons, stderr, instructions, tools, resources, prompts, problems and
// warnings.
func hostileFixture() engine.Snapshot {
	schema := json.RawMessage(`{"type":"object","properties":{"q` + jsonEsc(hostile) + `":{"type":"string","title":"T` + jsonEsc(hostile) + `","description":"D` + jsonEsc(hostile) + `"},
		"c":{"type":"string","enum":["a` + jsonEsc(hostile) + `"],"enumNames":["N` + jsonEsc(hostile) + `"]}}}`)
	cfg := model.ServerConfig{
		Command: hx("npx"), Args: []string{"--x=\r" + hostile, "\x1b[2K"}, Env: map[string]string{hx("E"): hx("v")},
	}
	evil := engine.ServerSnapshot{
		Name: hx("evil"), Scope: model.ScopeUser, Source: hx("/home/me/settings.json"), Transport: model.TransportStdio,
		Target: hx("npx ") + " \x1b[2K", State: model.StateConnected, Enabled: true, Runnable: true, Config: cfg,
		Policy:     model.PolicyDecision{Allowed: true},
		ServerInfo: engine.Implementation{Name: hx("srv"), Version: hx("1")}, ProtocolVersion: hx("p"),
		Instructions: hx("instructions "),
		Tools: []engine.Tool{{
			Name: hx("tool"), ExposedName: hx("mcp__evil__tool"), Title: hx("title"), Description: hx("tool desc"), InputSchema: schema,
		}},
		Resources: []engine.Resource{{URI: hx("file:///r"), Name: hx("res"), MIMEType: hx("text/"), Description: hx("rdesc")}},
		Templates: []engine.ResourceTemplate{{URITemplate: hx("file:///{id}"), Name: hx("tpl"), MIMEType: hx("text/"), Description: hx("tdesc")}},
		Prompts: []engine.Prompt{{Name: hx("prompt"), Description: hx("pdesc"), Arguments: []engine.PromptArgument{
			{Name: hx("arg"), Description: hx("adesc"), Required: true}, {Name: hx("opt")},
		}}},
		StderrTail: []string{hx("stderr "), hx("\tmore ")},
		Logs: []engine.LogEntry{
			{At: t0, Level: "error", Logger: hx("logger "), Data: hx("log ")},
			{At: t0, Level: "info", Data: `{"k` + jsonEsc(hostile) + `":"v` + jsonEsc(hostile) + `"}`},
		},
		LogErrors: 1,
		Traffic: []engine.Frame{
			{
				At: t0, Dir: engine.FrameReceived, Kind: engine.FrameNotification, Method: hx("notifications/"), Size: 9,
				Body: `{"jsonrpc":"2.0","method":"m` + jsonEsc(hostile) + "\u202e\u0085" + `","params":{"k` + jsonEsc(hostile) + `":1}}`,
			},
			{
				At: t0, Dir: engine.FrameReceived, Kind: engine.FrameError, Method: hx("tools/call"), ID: hx(`"id`), Size: 9, Cut: true,
				Body: hx(`{"jsonrpc":"2.0","error":{"message":"cut `),
			},
		},
		History: []engine.Transition{{From: model.StatePending, To: model.StateConnected, At: t0, Reason: hx("reason ")}},
	}
	webProblem := model.Problem{File: hx("/f"), Server: hx("web"), Field: hx("url"), Message: hx("bad ")}
	failed := engine.ServerSnapshot{
		Name: hx("web"), Scope: model.ScopeProject, Source: hx("/work/.mcp.json"), Transport: model.TransportHTTP,
		Target: "https://x.example/mcp\x1b]52;c;ZXZpbA==\x07", State: model.StateFailed, Enabled: true,
		Config: model.ServerConfig{Type: model.TransportHTTP, URL: "https://x.example/mcp\x1b]52;c;ZXZpbA==\x07", Headers: map[string]string{hx("X-"): hx("h")}},
		Policy: model.PolicyDecision{Allowed: false, Rule: hx("rule ")}, Approval: model.Approval{Status: model.ApprovalChanged, Diff: hx("+ args: ")},
		Error: hx("error "), ErrorDetail: hx("detail "), ErrorClass: hx("class"),
		Problems: []model.Problem{webProblem},
		// every reason with outside text, as the engine would fill them
		Reason: model.Reason{Kind: model.ReasonGaveUp, MaxAttempts: 5, Error: hx("cause ")},
		Blockers: []model.Reason{
			{Kind: model.ReasonBlockedByPolicy, Rule: hx("rule ")},
			{Kind: model.ReasonAwaitingApproval, Changed: true},
			{Kind: model.ReasonConfigProblem, Problem: &webProblem},
			{Kind: model.ReasonCommandNotFound, Command: hx("cmd ")},
		},
	}
	pending := engine.ServerSnapshot{
		Name: hx("proj"), Scope: model.ScopeProject, Source: hx("/work/.mcp.json"), Transport: model.TransportStdio,
		Target: hx("python "), State: model.StatePending, Enabled: true, Config: cfg,
		Policy: model.PolicyDecision{Allowed: true}, Approval: model.Approval{Status: model.ApprovalPending},
		Reason: model.Reason{Kind: model.ReasonAwaitingApproval}, Blockers: []model.Reason{{Kind: model.ReasonAwaitingApproval}},
	}
	return engine.Snapshot{
		Seq: 1, At: t0, Servers: []engine.ServerSnapshot{evil, failed, pending},
		Problems: []model.Problem{{File: hx("/broken.json"), Message: hx("broken ")}},
		Warnings: []string{hx("warning ")},
	}
}

func jsonEsc(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// assertScreenSafe fails when a frame could drive the terminal or hide a
// character: with the ASCII profile no textsafe.HiddenRune but newline may
// remain (no other control, DEL, ESC, C1 control, bidi, invisible or tag
// character).
func assertScreenSafe(t *testing.T, what, v string) {
	t.Helper()
	for i, r := range v {
		if (textsafe.HiddenRune(r) && r != '\n') || (r == utf8.RuneError && !strings.HasPrefix(v[i:], "\uFFFD")) {
			t.Errorf("%s: %U reaches the terminal at byte %d:\n%q", what, r, i, v)
			return
		}
	}
	if !strings.Contains(v, "end") && what != "running" {
		t.Fatalf("%s: the hostile text is not on screen at all, the check proves nothing:\n%s", what, v)
	}
}

// TestEveryScreenIsTerminalSafe renders every screen — list, each detail
// tab, the approval, help, sign-in, picker, form, running, result and
// elicitation modals, status and notice lines — on the hostile fixture and
// checks each frame; the list and two detail tabs are goldens.
func TestEveryScreenIsTerminalSafe(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		eng := newFakeEngine(hostileFixture())
		release := make(chan struct{})
		eng.callTool = func(ctx context.Context, _, _ string, _ map[string]any, progress func(engine.Progress)) (engine.ToolResult, error) {
			progress(engine.Progress{Progress: 1, Total: 2, Message: hx("progress ")})
			<-release
			return engine.ToolResult{
				Content: []engine.Content{
					{Kind: "text", Text: hx("text "), Role: hx("role")},
					{Kind: "resource_link", URI: hx("file:///l"), MIMEType: hx("text/"), Text: hx("link ")},
					{Kind: "image", MIMEType: hx("image/"), Path: hx("/tmp/img"), Size: 6},
				},
				Structured: json.RawMessage(`{"k` + jsonEsc(hostile) + `":"v \u202e` + jsonEsc(hostile) + `"}`),
				IsError:    true,
			}, nil
		}
		eng.errs["reconnect"] = errors.New(hx("refused "))
		h := newHarness(t, eng, 100, 30)
		check := func(what string) { t.Helper(); assertScreenSafe(t, what, h.view()) }
		check("approval")
		h.keys("esc")
		check("list")
		golden(t, "hostile_list", h.view())
		h.keys("?")
		check("help with notices")
		h.keys("esc")

		h.selectServer(hx("evil"))
		h.keys("enter")
		check("detail overview")
		golden(t, "hostile_detail_overview", h.view())
		h.keys("tab")
		check("detail tools")
		golden(t, "hostile_detail_tools", h.view())
		for _, tab := range []string{"resources", "prompts", "stderr", "instructions"} {
			h.keys("tab")
			check("detail " + tab)
		}
		h.keys("8")
		check("detail logs")
		h.keys("9")
		check("detail traffic")
		h.keys("enter")
		check("traffic frame, cut")
		h.keys("esc", "k", "enter")
		check("traffic frame, JSON")
		h.keys("esc")
		h.keys("2")
		h.keys("c")
		check("tool picker")
		h.keys("enter")
		check("tool form")
		h.keys("esc", "c", "enter", "enter", "enter")
		check("running")
		close(release)
		h.settle()
		check("tool result")
		h.keys("esc", "R")
		check("resource picker")
		h.keys("enter")
		check("resource result")
		h.keys("esc", "R", "j", "enter")
		check("template form")
		h.keys("esc", "p")
		check("prompt picker")
		h.keys("enter")
		check("prompt form")
		h.keys("x", "enter")
		check("prompt result")
		h.keys("esc", "esc")

		h.selectServer(hx("web"))
		h.keys("r")
		check("action error in the status line")
		h.keys("enter")
		check("failed server overview")
		golden(t, "hostile_why_not_running", h.view())
		h.keys("esc")

		_ = elicitAsync(h, t.Context(), engine.ElicitRequest{Server: hx("evil"), Mode: "form", Message: hx("message "), Schema: hostileFixture().Servers[0].Tools[0].InputSchema})
		check("elicitation form")
		h.keys("esc")
		_ = elicitAsync(h, t.Context(), engine.ElicitRequest{Server: hx("evil"), Mode: "url", Message: hx("visit "), URL: "https://x.example/\x1b]52;c;ZXZpbA==\x07" + hostile})
		check("elicitation url")
		h.keys("esc")

		s := hostileFixture()
		s.Seq = 2
		s.Servers[1].State = model.StateNeedsAuth
		s.Servers[1].AuthURL = "https://as.example/authorize?x=\x1b]52;c;ZXZpbA==\x07" + hostile
		eng.publish(s)
		h.settle()
		h.wantView("Sign in to web")
		check("sign-in")
	})
}

// TestSafeFrameKeepsColours: the last-step frame filter leaves a coloured
// frame of honest text exactly as lipgloss drew it, and strips a hostile
// field's sequences from it while keeping the colours around them.
func TestSafeFrameKeepsColours(t *testing.T) {
	lipgloss.SetColorProfile(termenv.TrueColor)
	t.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("enter")
		v := h.view()
		if !strings.Contains(v, "\x1b[") {
			t.Fatal("no colour in the frame: the test proves nothing")
		}
		if got := tuikit.SafeFrame(v); got != v {
			t.Fatalf("tuikit.SafeFrame changed a clean coloured frame:\n%q\n%q", v, got)
		}
		styled := lipgloss.NewStyle().Bold(true).Render("a" + hostile + "b")
		if got := tuikit.SafeFrame(styled); !strings.HasPrefix(got, "\x1b[1m") || strings.Contains(got, "]52") || strings.ContainsRune(got, '\u202e') {
			t.Fatalf("tuikit.SafeFrame(%q) = %q", styled, got)
		}
	})
}
