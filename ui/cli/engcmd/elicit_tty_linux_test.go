package engcmd

import (
	"bytes"
	"errors"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestCallAnswersAnElicitationAtATerminal: at a terminal, a server's form
// elicitation during `call` is asked there a line at a time (its choices
// and defaults shown; enter keeps a default; a value the field does not
// take is asked again), as `mcp approve` asks y/N, instead of failing for
// want of the TUI or --elicit.
func TestCallAnswersAnElicitationAtATerminal(t *testing.T) {
	e := clitest.NewEnv(t)
	e.OK("mcp", "add", "sv", "--", clitest.Binary, "demo-server", "survey")
	ctl, tty := clitest.OpenPTY(t)
	defer ctl.Close()
	cmd := e.Command("call", "sv", "feedback")
	var stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = tty.Close()
	answers := []struct{ after, say string }{
		{"Answer it? [Y/d/c] (yes, decline, cancel) ", ""},
		{"Your name (name) *: ", "Ada"},
		{"rating [great|fine|meh] (great): ", "superb"}, // not a choice: asked again
		{"rating: choose one of great|fine|meh", "fine"},
		{"subscribe [true|false] (false): ", ""},
	}
	var shown bytes.Buffer
	buf := make([]byte, 4096)
	next := 0
	for {
		n, err := ctl.Read(buf)
		shown.Write(buf[:n])
		for next < len(answers) && strings.Count(shown.String(), answers[next].after) > countBefore(answers[:next], answers[next].after) {
			if _, err := ctl.Write([]byte(answers[next].say + "\n")); err != nil {
				t.Fatal(err)
			}
			next++
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, syscall.EIO) {
				t.Fatal(err)
			}
			break
		}
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	if next < len(answers) {
		t.Fatalf("the terminal was not asked %q:\n%s\n%s", answers[next].after, shown.String(), stderr.String())
	}
	if err != nil || !strings.Contains(shown.String(), `Thanks, Ada! You rated the demo "fine" (no newsletter).`) {
		t.Fatalf("call: %v\n%s\n%s", err, shown.String(), stderr.String())
	}
	if !strings.Contains(shown.String(), "How is the demo going?") {
		t.Errorf("the server's question is not shown:\n%s", shown.String())
	}
}

// countBefore is how many of the earlier answers waited for the same text:
// a prompt asked again is answered once per time it shows.
func countBefore(earlier []struct{ after, say string }, after string) int {
	n := 0
	for _, a := range earlier {
		if a.after == after {
			n++
		}
	}
	return n
}
