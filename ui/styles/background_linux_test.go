package styles

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/testdata/ptytest"
)

// TestAskBackgroundReadsTheAnswer: a terminal answering with a white
// background makes the palette light; the question is asked once.
func TestAskBackgroundReadsTheAnswer(t *testing.T) {
	master, slave := ptytest.Open(t)
	asked := make(chan string, 1)
	go func() {
		buf := make([]byte, 64)
		n, _ := master.Read(buf)
		asked <- string(buf[:n])
		master.WriteString("\x1b]11;rgb:ffff/ffff/ffff\x07\x1b[3;1R")
	}()
	dark, ok := askBackground(slave, 10*time.Second) // the answer ends the wait, not the deadline
	if !ok || dark {
		t.Errorf("white background: dark %v ok %v", dark, ok)
	}
	if q := <-asked; !strings.Contains(q, "\x1b]11;?") || !strings.Contains(q, "\x1b[6n") {
		t.Errorf("question %q", q)
	}
}

// TestAskBackgroundGivesUpOnSilence: a terminal that never answers costs
// the timeout, and the default stays.
func TestAskBackgroundGivesUpOnSilence(t *testing.T) {
	_, slave := ptytest.Open(t)
	if _, ok := askBackground(slave, 50*time.Millisecond); ok {
		t.Error("a silent terminal gave an answer")
	}
}
