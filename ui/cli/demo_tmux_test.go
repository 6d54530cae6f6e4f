package cli

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// tmuxSession is a private tmux server (its own socket) running one command.
type tmuxSession struct {
	t      *testing.T
	socket string
}

func newTmux(t *testing.T, width, height int, command string) *tmuxSession {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is required in CI for the real-terminal test (apt-get install -y tmux)")
		}
		t.Skip("tmux not installed: skipping the real-terminal test (apt-get install -y tmux)")
	}
	s := &tmuxSession{t: t, socket: fmt.Sprintf("mcpdeck-test-%d-%d", os.Getpid(), time.Now().UnixNano())}
	s.run("new-session", "-d", "-s", "demo", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height),
		"env", "TERM=xterm-256color", "sh", "-c", command+"; echo MCPDECK-EXITED=$?; sleep 30")
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	return s
}

func (s *tmuxSession) run(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (s *tmuxSession) screen() string { return s.run("capture-pane", "-p", "-t", "demo") }

// keys sends tmux key names ("Enter", "Escape", "Tab") or literal text.
func (s *tmuxSession) keys(keys ...string) {
	s.t.Helper()
	s.run(append([]string{"send-keys", "-t", "demo"}, keys...)...)
}

// waitFor polls the screen until every string is on it, or fails at the deadline.
func (s *tmuxSession) waitFor(what ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		scr := s.screen()
		missing := ""
		for _, w := range what {
			if !strings.Contains(scr, w) {
				missing = w
				break
			}
		}
		if missing == "" {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q:\n%s", missing, scr)
		}
		<-tick.C
	}
}

// TestDemoInARealTerminal runs `mcpdeck demo` in tmux and uses it as a
// person would: approve the project server, filter, open a server, call a
// tool, answer a form elicitation, quit.
func TestDemoInARealTerminal(t *testing.T) {
	s := newTmux(t, 100, 30, textsafe.QuoteArg(clitest.Binary)+" demo")

	// The project server asks for approval first, showing the full command.
	s.waitFor("New project server", "reviewer", "demo-server", "A/enter approve")
	s.keys("A") // A approves, in the prompt as in the list
	scr := s.waitFor("● reviewer", "● calculator", "● notes", "● weather-sim", "● survey")
	for _, want := range []string{"⊘ blocked", "blocked by policy", "dynamic", "project", "user", "mcpdeck demo"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("list lacks %q:\n%s", want, scr)
		}
	}

	// Browse with the vi keys and the arrows.
	s.keys("j")
	s.waitFor("› ● notes")
	s.keys("Down")
	s.waitFor("› ● survey")
	s.keys("k")
	s.waitFor("› ● notes")
	s.keys("g")
	s.waitFor("› ● calculator")

	// Filter to the calculator, open it, go to its tools, call calculate.
	s.keys("/")
	s.waitFor("filter by name")
	s.keys("calc")
	s.waitFor("/calc")
	s.keys("Enter")
	s.waitFor("› ● calculator")
	s.keys("Enter")
	s.waitFor("Overview", "calculator 1.2.0")
	s.keys("Tab")
	s.waitFor("calculate  [read-only]", "slow_count")
	s.keys("c")
	s.waitFor("Call calculator › calculate", "op *", "a *", "b *")
	s.keys("2", "Enter") // a
	s.waitFor("┃ b *")
	s.keys("3", "Enter") // b
	s.waitFor("┃ op *")
	s.keys("Enter") // op: add (the default)
	s.waitFor("✓ done", `"result": 5`)
	s.keys("Escape")
	s.waitFor("Tools 2")
	// one key at a time: a terminal cannot tell two quick escapes from alt+esc
	s.keys("Escape") // back to the list
	s.waitFor("/calc", "› ● calculator")
	s.keys("Escape") // clear the filter
	s.waitFor("● notes", "● survey")

	// The survey tool asks a question through a form elicitation.
	s.keys("/")
	s.waitFor("filter by name")
	s.keys("survey")
	s.waitFor("/survey")
	s.keys("Enter")
	s.waitFor("› ● survey")
	s.keys("c")
	s.waitFor("Call a tool of survey", "feedback")
	s.keys("Enter")
	s.waitFor("No arguments")
	s.keys("Enter")
	s.waitFor("How is the demo going?", "Your name")
	s.keys("Ada", "Enter", "Enter", "Enter")
	s.waitFor("✓ done", `Thanks, Ada! You rated the demo "great" (no newsletter).`)
	s.keys("Escape")
	s.waitFor("/survey")
	s.keys("q")
	s.waitFor("MCPDECK-EXITED=0")
}

// TestDemoFitsSmallTerminal checks the 60×15 layout on the real program.
func TestDemoFitsSmallTerminal(t *testing.T) {
	s := newTmux(t, 60, 15, textsafe.QuoteArg(clitest.Binary)+" demo")
	s.waitFor("New project server")
	s.keys("Escape")
	scr := s.waitFor("● calculator")
	lines := strings.Split(strings.TrimRight(scr, "\n"), "\n")
	if len(lines) > 15 {
		t.Fatalf("%d lines on a 15-line terminal:\n%s", len(lines), scr)
	}
	s.keys("q")
	s.waitFor("MCPDECK-EXITED=0")
}

// selectByFilter filters the list down to name and leaves the filter.
func (s *tmuxSession) selectByFilter(name string) {
	s.t.Helper()
	s.keys("/")
	s.waitFor("filter by name")
	s.keys(name)
	s.waitFor("/" + name)
	s.keys("Enter")
	s.waitFor("› ")
}

// TestDemoActionsInARealTerminal drives the other actions against the real
// engine: disable and enable, reconnect, read a resource, get a prompt,
// reject a project server and say why an action is not available.
func TestDemoActionsInARealTerminal(t *testing.T) {
	s := newTmux(t, 110, 30, textsafe.QuoteArg(clitest.Binary)+" demo")
	s.waitFor("New project server")
	s.keys("x") // reject the project server
	s.waitFor("● notes", "reject reviewer: done")

	s.selectByFilter("notes")
	s.keys("d")
	s.waitFor("○ notes", "disable notes: done")
	s.keys("r")
	s.waitFor("reconnect: disabled by you (enable it to connect)")
	s.keys("e")
	s.waitFor("● notes", "enable notes: done")

	s.keys("R")
	s.waitFor("Read a resource of notes", "notes://all", "notes://{title}  (template)")
	s.keys("Enter")
	s.waitFor("✓ done", "welcome: Welcome to the mcpdeck demo.")
	s.keys("Escape")
	s.waitFor("/notes")

	s.keys("p")
	s.waitFor("Get a prompt of notes", "summarize")
	s.keys("Enter")
	s.waitFor("topic *")
	s.keys("mcp", "Enter")
	s.waitFor("┃ style")
	s.keys("Enter")
	s.waitFor("✓ done", "Summarize my notes about mcp")
	s.keys("Escape")
	s.waitFor("/notes")

	s.keys("Escape") // clear the filter
	s.waitFor("● calculator")
	s.selectByFilter("crashy")
	s.keys("r")
	s.waitFor("reconnected crashy", "● crashy")
	s.keys("Escape")
	s.waitFor("● calculator")
	s.selectByFilter("blocked")
	s.keys("Enter")
	s.waitFor("Why isn't this running?", `serverName "blocked"`)
	s.keys("q")
	s.waitFor("MCPDECK-EXITED=0")
}
