package ui

import (
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
		{"fresh", "AA", "approve fresh@h3"}, // A shows the definition, A again approves exactly it
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
				done, _, _ := strings.Cut(c.want, "@") // the status line names the server, not the hash
				if c.key == "r" {
					h.wantView("reconnected flaky") // the outcome, not only that it was asked
					return
				}
				h.wantView(done + ": done")
			})
		})
	}
}

func TestDisabledActionsSayWhy(t *testing.T) {
	cases := []struct{ server, key, want string }{
		{"off", "r", "reconnect: disabled by you (enable it to connect)"},
		{"off", "d", "disable: server is already disabled"},
		{"notes", "e", "enable: server is already enabled"},
		{"notes", "a", "authenticate: sdk servers do not use OAuth"},
		{"notes", "A", "approve: only project (.mcp.json) servers need approval"},
		{"broken", "c", "call tool: server is not connected (failed)"},
		{"fresh", "p", "get prompt: server is not connected (awaiting approval)"},
		{"blocked", "e", "enable: blocked by policy rule"},
		{"fresh", "r", "reconnect: awaiting your approval (this server comes from the project's .mcp.json)"},
		{"notes", "s", "stop retrying: no retry is scheduled"},
		{"broken", "r", "reconnect: server broken, field env.TOKEN: ${TOKEN} is not set (/home/me/.config/mcpdeck/settings.json:4:7)"},
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
		if h.m.env.Ctx.Err() == nil {
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
			h.keys("A") // A approves, in the prompt as in the list
			h.wantView("New project server", "It will run:", "python -m fresh_server")
			h.keys("x")
			want := []string{"approve repo-tools@h2", "reject fresh"}
			if got := h.eng.Actions(); !slices.Equal(got, want) {
				t.Fatalf("got %v, want %v", got, want)
			}
			if len(h.m.modals) != 0 {
				t.Fatal("prompt still open")
			}
		})
	})
	t.Run("a remote server is connected to, not run", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			s := fixture()
			s.Servers[3].Transport, s.Servers[3].Target = model.TransportHTTP, "https://mcp.example.com/mcp"
			s.Servers[3].Written = &model.ServerConfig{Type: model.TransportHTTP, URL: "https://mcp.example.com/mcp"}
			h := newHarness(t, newFakeEngine(s), 100, 30)
			h.keys("A")
			h.wantView("New project server", "It will connect to:", "https://mcp.example.com/mcp")
		})
	})
	t.Run("approve all", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			h := newHarness(t, newFakeEngine(fixture()), 100, 30)
			h.keys("*")
			// every server the prompt lists, each by the hash it was listed with
			if got := h.eng.Actions(); !slices.Equal(got, []string{"approve fresh@h3", "approve repo-tools@h2"}) {
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
		s.Servers[1].Reason = model.Reason{} // connected: no reason
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

func TestApprovalPromptForgetsServersDecidedElsewhere(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		f := newFakeEngine(fixture())
		h := newHarness(t, f, 100, 30)
		s := fixture()
		s.Servers[3].Approval.Status = model.ApprovalApproved // fresh, approved with the CLI
		f.publish(s)
		h.settle()
		h.keys("A") // approve repo-tools, the one on screen
		if len(h.m.modals) != 0 {
			t.Fatalf("still asking about fresh:\n%s", h.view())
		}
	})
}

// TestEveryNoticeIsReachable guards the keychain warning: with a config
// problem and several warnings, the status line counts them and ? lists all.
func TestEveryNoticeIsReachable(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Problems = []model.Problem{{File: "/p/.mcp.json", Line: 2, Col: 3, Message: "unexpected end of JSON"}}
		s.Warnings = []string{"config watcher could not start", "no keychain: tokens stored in /c/credentials.json (0600)"}
		h := newHarness(t, newFakeEngine(s), 160, 40)
		h.keys("esc")
		h.wantView("config problem: unexpected end of JSON (/p/.mcp.json:2:3)", "(+2 more: ? lists them)")
		h.keys("?")
		h.wantView("Notices", "config watcher could not start", "no keychain: tokens stored in /c/credentials.json (0600)")
	})
}

// TestReloadOfABrokenFileShowsTheProblem: ctrl+r on a broken config file
// must not end at "reload config: done" while the file's servers vanish:
// the status line keeps the problem with its file:line:col beside it.
func TestReloadOfABrokenFileShowsTheProblem(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Problems = []model.Problem{{File: "/p/.mcp.json", Line: 6, Col: 104, Message: "invalid JSON: invalid character ','"}}
		h := newHarness(t, newFakeEngine(s), 160, 40)
		h.keys("esc") // the approval prompt of the fixture's project servers
		h.keys("ctrl+r")
		h.wantView("reload config: done", "config problem: invalid JSON: invalid character ',' (/p/.mcp.json:6:104)")
	})
}

// TestReconnectFollowsTheEngine: whether a server may reconnect is the
// engine's decision (ServerSnapshot.Runnable), worded from its first
// blocker; the TUI does not decide again from the fields (a policy denial
// without a rule once passed that second check).
func TestReconnectFollowsTheEngine(t *testing.T) {
	denied := engine.ServerSnapshot{
		Enabled: true, Policy: model.PolicyDecision{Allowed: false},
		Blockers: []model.Reason{{Kind: model.ReasonBlockedByPolicy}},
	}
	if ok, why := canReconnect(&denied); ok || why != "blocked by managed policy" {
		t.Errorf("denied without a rule: %v %q", ok, why)
	}
	lost := engine.ServerSnapshot{Enabled: true, Runnable: true, Blockers: []model.Reason{{Kind: model.ReasonCommandNotFound, Command: "x"}}}
	if ok, why := canReconnect(&lost); !ok {
		t.Errorf("a command not found is no reason not to try again: %q", why)
	}
}

// TestCountdownTicksOnlyWhileShown: the 1 s tick runs while a countdown is
// on screen, not while the retrying server is out of view (the detail
// view of another server), and starts again when it comes back.
func TestCountdownTicksOnlyWhileShown(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 120, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("enter")
		time.Sleep(2 * time.Second) // fake time: let the running tick fire
		h.settle()
		if h.m.ticking {
			t.Fatal("ticking while the detail view of a connected server hides the countdown")
		}
		h.keys("esc")
		if !h.m.ticking {
			t.Fatal("no tick once the countdown is on screen again")
		}
	})
}
