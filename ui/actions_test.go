package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

func TestServerActionsGoToTheEngine(t *testing.T) {
	cases := []struct {
		server, key, want string
	}{
		{"off", "e", "enable off"},
		{"notes", "d", "disable notes"},
		{"flaky", "r", "reconnect flaky"}, // retry now while pending
		{"flaky", "s", "stop retrying flaky"},
		{"remote-api", "a", "authenticate remote-api"},
		{"fresh", "A", "approve fresh"},
		{"repo-tools", "x", "reject repo-tools"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				h := newHarness(t, newFakeEngine(fixture()), 120, 30)
				h.keys("esc")
				h.selectServer(c.server)
				h.keys(c.key)
				if got := h.eng.Actions(); !slices.Equal(got, []string{c.want}) {
					t.Fatalf("engine got %v, want [%s]", got, c.want)
				}
				h.wantView(c.want + ": done")
			})
		})
	}
}

func TestDisabledActionsSayWhy(t *testing.T) {
	cases := []struct{ server, key, want string }{
		{"off", "r", "reconnect: server is disabled"},
		{"off", "d", "disable: server is already disabled"},
		{"notes", "e", "enable: server is already enabled"},
		{"notes", "a", "authenticate: sdk servers do not use OAuth"},
		{"notes", "A", "approve: only project (.mcp.json) servers need approval"},
		{"broken", "c", "call tool: server is not connected (failed)"},
		{"fresh", "p", "get prompt: server is not connected (awaiting approval)"},
		{"blocked", "e", "enable: blocked by policy rule"},
		{"fresh", "r", "reconnect: server is awaiting approval"},
		{"notes", "s", "stop retrying: no retry is scheduled"},
		{"broken", "r", "reconnect: the config has problems: ${TOKEN} is not set"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				h := newHarness(t, newFakeEngine(fixture()), 140, 30)
				h.keys("esc")
				h.selectServer(c.server)
				h.keys(c.key)
				if got := h.eng.Actions(); len(got) != 0 {
					t.Fatalf("engine got %v, want nothing", got)
				}
				h.wantView(c.want)
			})
		})
	}
}

// TestEnableBlockedServerYouDisabled: your own "disable" of a blocked
// server can be undone (it stays blocked); the footer offers it.
func TestEnableBlockedServerYouDisabled(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Servers[0].Enabled = false // blocked, and disabled by you
		h := newHarness(t, newFakeEngine(s), 140, 30)
		h.keys("esc")
		h.selectServer("blocked")
		h.wantView("e enable")
		h.keys("e")
		if got := h.eng.Actions(); !slices.Equal(got, []string{"enable blocked"}) {
			t.Fatalf("engine got %v", got)
		}
	})
}

func TestAuthNotAvailableIsShown(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		f := newFakeEngine(fixture())
		f.errs["authenticate"] = errAuthNotAvailable
		h := newHarness(t, f, 140, 30)
		h.keys("esc")
		h.selectServer("remote-api")
		h.keys("a")
		h.wantView("authenticate remote-api: auth not available yet")
	})
}

func TestSignInURLIsShownWhileAuthenticating(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		f := newFakeEngine(fixture())
		h := newHarness(t, f, 120, 30)
		h.keys("esc")
		s := fixture()
		s.Servers[7].AuthURL = "https://auth.example.com/authorize?x=1"
		f.publish(s)
		h.settle()
		h.wantView("Sign in to remote-api", "https://auth.example.com/authorize?x=1")
		h.keys("o")
		if !slices.Equal(h.opened, []string{"https://auth.example.com/authorize?x=1"}) {
			t.Fatalf("opened %v", h.opened)
		}
		s.Servers[7].AuthURL = ""
		s.Servers[7].State = model.StateConnected
		f.publish(s)
		h.settle()
		if len(h.m.modals) != 0 {
			t.Fatal("sign-in panel still open after the flow ended")
		}
	})
}

func TestReloadAndQuit(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 120, 30)
		h.keys("esc", "ctrl+r")
		if got := h.eng.Actions(); !slices.Equal(got, []string{"reload "}) {
			t.Fatalf("got %v", got)
		}
		h.keys("q")
		if !h.quit {
			t.Fatal("q did not quit")
		}
		if h.m.env.ctx.Err() == nil {
			t.Fatal("quitting did not cancel the actions' context")
		}
	})
}

func TestApprovalPrompt(t *testing.T) {
	t.Run("approve one by one", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			h := newHarness(t, newFakeEngine(fixture()), 100, 30)
			h.wantView("Project server changed since you approved it", "npx -y repo-tools --port 9000",
				"+ args: [-y repo-tools --port 9000]", "(1 of 2)")
			golden(t, "approval_diff", h.view())
			h.keys("a")
			h.wantView("New project server", "python -m fresh_server")
			h.keys("x")
			want := []string{"approve repo-tools", "reject fresh"}
			if got := h.eng.Actions(); !slices.Equal(got, want) {
				t.Fatalf("got %v, want %v", got, want)
			}
			if len(h.m.modals) != 0 {
				t.Fatal("prompt still open")
			}
		})
	})
	t.Run("approve all", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			h := newHarness(t, newFakeEngine(fixture()), 100, 30)
			h.keys("A")
			if got := h.eng.Actions(); !slices.Equal(got, []string{"approve all"}) {
				t.Fatalf("got %v", got)
			}
		})
	})
	t.Run("later, then asked again only when the definition changes", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			f := newFakeEngine(fixture())
			h := newHarness(t, f, 100, 30)
			h.keys("esc")
			f.publish(fixture())
			h.settle()
			if len(h.m.modals) != 0 {
				t.Fatal("asked again about the same definition")
			}
			s := fixture()
			s.Servers[3].Hash = "h4"
			f.publish(s)
			h.settle()
			h.wantView("New project server", "fresh")
		})
	})
}

func TestSnapshotsUpdateTheScreen(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		f := newFakeEngine(fixture())
		h := newHarness(t, f, 120, 30)
		h.keys("esc")
		s := fixture()
		for i := range s.Servers {
			if s.Servers[i].Name == "flaky" {
				s.Servers[i].State = model.StateConnected
				s.Servers[i].Tools = []engine.Tool{{Name: "t"}}
			}
		}
		f.publish(s)
		h.settle()
		h.wantView("● 2 connected", "1 tool · 0 resources · 0 prompts")
	})
}

func TestCountdownTicksOnlyWhilePending(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		f := newFakeEngine(fixture())
		h := newHarness(t, f, 120, 30)
		if !h.m.ticking {
			t.Fatal("no tick while a retry is scheduled")
		}
		h.keys("esc")
		now := t0.Add(3 * time.Second)
		h.m.now = func() time.Time { return now }
		h.m.list.now = h.m.now
		h.wantView("attempt 2/5 · retry in 4s")
		golden(t, "pending_countdown", h.view())
		s := fixture()
		s.Servers[1].State = model.StateConnected
		s.Servers[1].NextRetry = time.Time{}
		f.publish(s)
		h.settle()
		time.Sleep(2 * time.Second) // fake time: let the pending tick fire
		h.settle()
		if h.m.ticking {
			t.Fatal("still ticking with nothing pending")
		}
	})
}

func TestFilter(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 120, 30)
		h.keys("esc", "/", "no")
		v := h.view()
		if !strings.Contains(v, "notes") || strings.Contains(v, "flaky") {
			t.Fatalf("filter not applied:\n%s", v)
		}
		h.keys("enter")
		if s := h.m.list.Selected(); s == nil || s.Name != "notes" {
			t.Fatalf("selected %v", s)
		}
		h.keys("esc")
		h.wantView("flaky", "notes")
	})
}

func TestFilterTypedInOneBurst(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 120, 30)
		h.keys("esc")
		h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/fla")})
		h.keys("enter")
		if s := h.m.list.Selected(); s == nil || s.Name != "flaky" {
			t.Fatalf("selected %v", s)
		}
		if h.m.detail != nil {
			t.Fatal("enter opened the detail instead of ending the filter")
		}
	})
}

// TestKeysTypedInOneBurst: "jj" read from the terminal at once moves twice,
// in the list and in a picker; in a form the same burst is text.
func TestKeysTypedInOneBurst(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 120, 30)
		h.keys("esc", "g")
		h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jj")})
		if s := h.m.list.Selected(); s == nil || s.Name != "repo-tools" {
			t.Fatalf("after jj selected %v, want repo-tools", s)
		}
		h.selectServer("notes")
		h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("cjj")})
		h.wantView("› search")
		h.keys("enter")
		h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jj")})
		h.wantView("> jj")
	})
}

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
		h.wantView("Why isn't this running?", "command nosuchcmd not found on PATH",
			"settings.json:4:7: server broken, field env.TOKEN: ${TOKEN} is not", "exited with code 127",
			"executable file not found")
		golden(t, "why_not_running", h.view())
		h.keys("esc")
		h.selectServer("blocked")
		h.keys("enter")
		h.wantView("blocked by managed policy rule deniedMcpServers", "⊘ blocked  dynamic · stdio · blocked by policy",
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

func TestHelp(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 120, 30)
		h.keys("esc", "?")
		h.wantView("enable", "reconnect", "call tool", "read resource", "get prompt", "approve all", "open in browser",
			"Servers", "In prompts")
		golden(t, "help", h.view())
		h.keys("esc")
		if len(h.m.modals) != 0 {
			t.Fatal("help still open")
		}
		h.keys("?", "q")
		if !h.quit {
			t.Fatal("q in the help did not quit")
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

func TestApprovalPromptForgetsServersDecidedElsewhere(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		f := newFakeEngine(fixture())
		h := newHarness(t, f, 100, 30)
		s := fixture()
		s.Servers[3].Approval.Status = model.ApprovalApproved // fresh, approved with the CLI
		f.publish(s)
		h.settle()
		h.keys("a") // approve repo-tools, the one on screen
		if len(h.m.modals) != 0 {
			t.Fatalf("still asking about fresh:\n%s", h.view())
		}
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

// TestLongTextIsWrappedNotCut: the last error is shown in full and a long
// stderr line can be read to its end, on a narrow terminal too.
func TestLongTextIsWrappedNotCut(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		long := strings.Repeat("the server said something rather long ", 4) + "END-OF-ERROR"
		s.Servers[4].ErrorDetail = long // broken
		s.Servers[5].StderrTail = []string{strings.Repeat("noisy ", 15) + "END-OF-STDERR"}
		h := newHarness(t, newFakeEngine(s), 60, 40)
		h.keys("esc")
		h.selectServer("broken")
		h.keys("enter")
		h.wantView("END-OF-ERROR", "/home/me/.config/mcpdeck/settings.json (user)")
		h.keys("esc")
		h.selectServer("notes")
		h.keys("enter", "5")
		h.wantView("END-OF-STDERR")
	})
}
