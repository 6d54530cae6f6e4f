package cli

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestTypedAheadKeysMissTheServersPrompt: keys sent in one burst, with the
// survey server's form elicitation opening between two of them, leave the
// prompt open: the Enter that starts the call is followed by keys typed
// ahead (arrows, then ctrl+d, which would decline), all in the terminal
// before the prompt was drawn. The prompt is still there once it takes
// keys, and answers what is typed after it showed.
func TestTypedAheadKeysMissTheServersPrompt(t *testing.T) {
	s := newTmux(t, 100, 30, textsafe.QuoteArg(clitest.Binary)+" demo")
	s.waitFor("New project server")
	s.waitArmed("? help")
	s.keys("Escape")
	s.waitFor("● survey")
	s.selectByFilter("survey")
	s.keys("c")
	s.waitFor("Call a tool of survey", "feedback")
	s.keys("Enter")
	s.waitFor("No arguments")
	// one burst: the call starts, the server asks, the rest was typed ahead
	burst := []string{"Enter"}
	for range 300 {
		burst = append(burst, "Down")
	}
	s.keys(append(burst, "C-d")...)
	// the burst is over once the prompt takes keys (it arms only after a
	// quarter second with none), or once ctrl+d declined it
	held := "keys typed before this prompt was on screen were not given to it"
	scr := s.waitForAny("you chose to decline", held)
	if strings.Contains(scr, "you chose to decline") {
		t.Fatalf("a key typed before the prompt showed answered it:\n%s", scr)
	}
	scr = s.waitArmed("f1 help")
	for _, want := range []string{"How is the demo going?", "Your name", held} {
		if !strings.Contains(scr, want) {
			t.Fatalf("the prompt did not stay open for keys typed before it showed (no %q):\n%s", want, scr)
		}
	}
	s.keys("Ada", "Enter", "Enter", "Enter")
	s.waitFor("✓ done", `Thanks, Ada!`)
	s.keys("Escape")
	s.waitFor("/survey")
	s.keys("q")
	s.waitFor("MCPDECK-EXITED=0")
}
