package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

func TestDetailView(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("enter")
		h.wantView("Overview", "Tools 3", "/home/me/.config/mcpdeck/settings.json", "initialized")
		golden(t, "detail_overview", h.view())
		h.keys("tab")
		h.wantView("add_note  [destructive]", "list_notes  [“List notes”, read-only]", "search  [open-world]")
		golden(t, "detail_tools", h.view())
		h.keys("tab")
		h.wantView("notes://all", "notes://{id}  (template)")
		h.keys("tab")
		h.wantView("summarize(topic, style?)")
		h.keys("tab")
		h.wantView("notes: ready")
		h.keys("tab")
		h.wantView("Use add_note to store notes")
		h.keys("esc")
		if h.m.detail != nil {
			t.Fatal("esc did not go back")
		}
	})
}

func TestWhyNotRunning(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		h.selectServer("broken")
		h.keys("enter")
		h.wantView("Why isn't this running?", "Command nosuchcmd not found on PATH.",
			"Server broken, field env.TOKEN: ${TOKEN} is not", "exited with code 127")
		if v := h.view(); strings.Contains(v, "Last error") || strings.Contains(v, "executable file not found") {
			t.Errorf("the failure is said again, in the transport's words:\n%s", v)
		}
		golden(t, "why_not_running", h.view())
		h.keys("esc")
		h.selectServer("blocked")
		h.keys("enter")
		h.wantView("Blocked by policy rule deniedMcpServers", "⊘ blocked  dynamic · stdio · blocked by policy",
			"State      blocked by policy")
		h.keys("esc")
		h.selectServer("fresh")
		h.keys("enter")
		// pending for the engine, but waiting for the person, not connecting
		h.wantView("? fresh  project · stdio · awaiting approval", "State      awaiting approval")
		if strings.Contains(h.view(), "connecting") {
			t.Fatalf("an unapproved server is shown as connecting:\n%s", h.view())
		}
		h.keys("esc")
		h.selectServer("repo-tools")
		h.keys("enter")
		h.wantView("Awaiting your approval again", "+ args: [-y repo-tools --port 9000]", "changed since approval")
		if n := strings.Count(h.view(), "+ args: [-y repo-tools --port 9000]"); n != 1 {
			t.Fatalf("the diff is shown %d times:\n%s", n, h.view())
		}
		if n := strings.Count(h.view(), "│ • "); n != 1 { // the engine's reason says it all
			t.Fatalf("%d reasons, want 1:\n%s", n, h.view())
		}
	})
}

func TestStderrFollowsLive(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		f := newFakeEngine(fixture())
		h := newHarness(t, f, 100, 20)
		h.keys("esc")
		h.selectServer("notes")
		lines := func(n int) []string {
			out := make([]string, n)
			for i := range out {
				out[i] = fmt.Sprintf("log line %03d", i+1)
			}
			return out
		}
		s := fixture()
		s.Servers[5].StderrTail = lines(100)
		f.publish(s)
		h.settle()
		h.keys("enter", "5") // Stderr tab
		h.wantView("log line 100")
		s.Servers[5].StderrTail = lines(120)
		f.publish(s)
		h.settle()
		h.wantView("log line 120") // following
		h.keys("up", "up", "up")
		s.Servers[5].StderrTail = lines(130)
		f.publish(s)
		h.settle()
		if v := h.view(); strings.Contains(v, "log line 130") || !strings.Contains(v, "log line 117") {
			t.Fatalf("scrolled-up view moved:\n%s", v)
		}
		h.keys("G")
		h.wantView("log line 130")
	})
}

func TestRemovedServerClosesItsDetail(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		f := newFakeEngine(fixture())
		h := newHarness(t, f, 100, 30)
		h.keys("esc")
		h.selectServer("off")
		h.keys("enter")
		s := fixture()
		s.Servers = append(s.Servers[:6:6], s.Servers[7:]...) // without "off"
		f.publish(s)
		h.settle()
		if h.m.detail != nil {
			t.Fatal("detail of a removed server still open")
		}
		h.wantView("off is no longer in the configuration")
	})
}

func TestStderrEscapeSequencesAreNotDrawn(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Servers[5].StderrTail = []string{"evil \x1b[2J\x1b]0;pwned\x07 line\twith tab"}
		h := newHarness(t, newFakeEngine(s), 100, 20)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("enter", "5")
		v := h.view()
		if strings.ContainsRune(v, 0x1b) || strings.ContainsRune(v, 0x07) || strings.ContainsRune(v, '\t') {
			t.Fatalf("control characters reached the screen: %q", v)
		}
		h.wantView("evil", "line    with tab")
	})
}

// TestLongTextIsWrappedNotCut: the failure is shown in full and a long
// stderr line can be read to its end, on a narrow terminal too.
func TestLongTextIsWrappedNotCut(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		long := strings.Repeat("the server said something rather long ", 4) + "END-OF-ERROR"
		s.Servers[4].Reason = model.Reason{Kind: model.ReasonGaveUp, MaxAttempts: 5, Error: long} // broken
		s.Servers[5].StderrTail = []string{strings.Repeat("noisy ", 15) + "END-OF-STDERR"}
		h := newHarness(t, newFakeEngine(s), 60, 40)
		h.keys("esc")
		h.selectServer("broken")
		h.keys("enter")
		h.wantView("END-OF-ERROR", "/home/me/.config/mcpdeck/settings.json (user)",
			"[Overview] Tools", " ›") // whole tab names; those left out marked
		h.keys("esc")
		h.selectServer("notes")
		h.keys("enter", "5")
		h.wantView("END-OF-STDERR")
	})
}

// TestToolCollisionIsMarked: a tool whose exposed name another tool also
// has says so in the tools tab.
func TestToolCollisionIsMarked(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Servers[5].Tools[1].Collision = "the same exposed name as other/list_notes"
		h := newHarness(t, newFakeEngine(s), 140, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("enter", "2")
		h.wantView("⚠ the same exposed name as other/list_notes")
	})
}

// TestLogsTab: the Logs tab shows a server's log messages at or above its
// level, JSON data indented; L steps the level and asks the server for it;
// a server that logged errors says so on its row.
func TestLogsTab(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Servers[5].Logs = []engine.LogEntry{
			{At: t0, Level: "debug", Data: "starting"},
			{At: t0, Level: "error", Logger: "db", Data: `{"code":7}`},
		}
		s.Servers[5].LogErrors = 1
		h := newHarness(t, newFakeEngine(s), 120, 30)
		h.keys("esc")
		h.wantView("3 tools · 1 resource · 1 template · 1 prompt · ⚠ 1 error logged")
		h.selectServer("notes")
		h.keys("enter", "8")
		h.wantView("showing debug and above", "debug starting", "error db: {", `"code": 7`)
		h.keys("L")
		h.wantView("showing info and above")
		if strings.Contains(h.view(), "starting") {
			t.Errorf("a debug message shown at info:\n%s", h.view())
		}
		if got := h.eng.Actions(); !slices.Contains(got, "log level notes info") {
			t.Errorf("the server was not asked for the level: %v", got)
		}
	})
}

// TestWatchResource: w on a resource of a server offering subscriptions
// asks the engine to watch it (again: to stop); the row then says it is
// watched, when it changed and what it holds now; a template, or a server
// without subscriptions, says why not.
func TestWatchResource(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Servers[5].Subscriptions = true
		f := newFakeEngine(s)
		h := newHarness(t, f, 120, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("enter", "3", "w")
		if got := h.eng.Actions(); !slices.Contains(got, "watch notes notes://all") {
			t.Fatalf("not watched: %v", got)
		}
		s.Servers[5].Watched = []engine.WatchedResource{{
			URI: "notes://all", Contents: []engine.Content{{Kind: "text", Text: "buy\nmilk"}},
			ReadAt: t0.Add(time.Second), ChangedAt: t0, Updates: 2,
		}}
		f.publish(s)
		h.settle()
		h.wantView("all notes  notes://all  ◉ watching", "changed "+t0.Format(time.TimeOnly)+" (2 updates) · buy milk")
		h.keys("w")
		if got := h.eng.Actions(); !slices.Contains(got, "unwatch notes notes://all") {
			t.Fatalf("not unwatched: %v", got)
		}
		h.keys("down", "w")
		h.wantView("watch resource: select a resource (not a template) in the Resources tab")
		s.Servers[5].Subscriptions = false
		f.publish(s)
		h.settle()
		h.keys("up", "w")
		h.wantView("watch resource: server does not offer resource subscriptions")
	})
}

// TestListShowsContextTokens: a connected server's row says what its tool
// definitions cost in tokens, counted off the Update loop; over 10 000 it
// is marked; a new tool list is counted again; a cut description makes the
// count a lower bound.
func TestListShowsContextTokens(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		f := newFakeEngine(s)
		h := newHarness(t, f, 140, 30)
		h.keys("esc")
		h.wantView("3 tools · 1 resource · 1 template · 1 prompt · ~166 tokens")
		var tools []engine.Tool
		for i := range 60 {
			tools = append(tools, engine.Tool{
				Name: fmt.Sprintf("t%02d", i), Description: strings.Repeat("word ", 400) + textsafe.TruncatedSuffix,
				InputSchema: json.RawMessage(`{"type":"object"}`),
			})
		}
		s.Servers[5].Tools = tools
		f.publish(s)
		h.settle()
		h.wantView("60 tools", "≥25k tokens ⚠")
		h.selectServer("notes")
		h.keys("enter")
		h.wantView("Context", "≥25k tokens in a model's context", "over 10000: deny mcp__notes__t00")
		h.keys("2", "D")
		if got := h.eng.Actions(); !slices.Contains(got, "deny notes t00 true") {
			t.Fatalf("D did not deny the tool: %v", got)
		}
		h.keys("1", "D")
		h.wantView("deny tool: select a tool in the Tools tab")
	})
}

// TestConfigJSONReadsAsWritten: the Config section shows a shell line's >
// and & and a URL's & as written, not as \u003e and \u0026, while a hidden
// character in it is still shown as its escape, not obeyed.
func TestConfigJSONReadsAsWritten(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Servers[1].Config = model.ServerConfig{Command: "sh", Args: []string{"-c", "serve <in >log && echo ok\u202e"}}      // flaky
		s.Servers[7].Config = model.ServerConfig{Type: model.TransportHTTP, URL: "https://api.example.com/mcp?team=a&role=b"} // remote-api
		h := newHarness(t, newFakeEngine(s), 120, 40)
		h.keys("esc")
		h.selectServer("flaky")
		h.keys("enter")
		h.wantView(`"serve <in >log && echo ok\u202e"`)
		if v := h.view(); strings.Contains(v, `\u003e`) || strings.Contains(v, `\u0026`) || strings.ContainsRune(v, '\u202e') {
			t.Fatalf("the config is HTML-escaped, or a hidden character reached the screen:\n%s", v)
		}
		h.keys("esc")
		h.selectServer("remote-api")
		h.keys("enter")
		h.wantView(`"url": "https://api.example.com/mcp?team=a&role=b"`)
	})
}

// TestWhyDuringBackoff: a server waiting 8 s to reconnect says what failed
// last, when, and when the next attempt runs; not "Still connecting.", and
// its crash once.
func TestWhyDuringBackoff(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		h.selectServer("flaky")
		h.keys("enter")
		h.wantView("• Reconnect attempt 1/5 failed at 12:59:59: the server exited (code 1).", "• Next attempt 2/5 at 13:00:07.")
		for _, no := range []string{"Still connecting", "Last crash", "Last error"} {
			if v := h.view(); strings.Contains(v, no) {
				t.Errorf("%q during the backoff wait:\n%s", no, v)
			}
		}
		golden(t, "why_backoff", h.view())

		// no crash to tell: still the failure and the wait, not "Still connecting."
		s := fixture()
		s.Servers[1].ExitCode = nil
		s.Servers[1].Reason.Error, s.Servers[1].Error = "connection refused at 127.0.0.1:8080: is the server running?", ""
		h.send(snapshotMsg{snap: s})
		h.wantView("• Reconnect attempt 1/5 failed at 12:59:59: connection refused at 127.0.0.1:8080: is the server", "• Next attempt 2/5 at 13:00:07.")
		if v := h.view(); strings.Contains(v, "Still connecting") {
			t.Errorf("still connecting during the backoff wait:\n%s", v)
		}
	})
}

// TestReconnectReportsTheOutcome: r says whether the reconnect worked,
// and why not; after a retry-now that failed, when the next one runs.
func TestReconnectReportsTheOutcome(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		f := newFakeEngine(fixture())
		refused := "connection refused at 127.0.0.1:8080: is the server running?"
		f.outcomes = map[string]engine.ServerSnapshot{
			"notes": {Name: "notes", State: model.StateFailed, Reason: model.Reason{Kind: model.ReasonFailed, Error: refused}, Error: refused},
			"flaky": {Name: "flaky", State: model.StatePending, Reason: model.Reason{
				Kind: model.ReasonRetryScheduled, Attempt: 3, MaxAttempts: 5, At: t0.Add(30 * time.Second), Error: refused,
			}},
		}
		h := newHarness(t, f, 160, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("r")
		h.wantView("reconnect notes failed: " + refused)
		if !h.m.statusErr {
			t.Error("a failed reconnect is not shown as a failure")
		}
		h.selectServer("flaky")
		h.keys("r")
		h.wantView("reconnect flaky failed: " + refused + "; next attempt 3/5 at 13:00:30")
		delete(f.outcomes, "notes")
		h.selectServer("notes")
		h.keys("r")
		h.wantView("reconnected notes")
		if h.m.statusErr {
			t.Error("a reconnect that worked is shown as a failure")
		}
	})
}
