package transports

import (
	"os"
	"strings"
	"testing"
)

// TestStderrLogKeepsRawBytes: the stderr log file and tail keep exactly
// what the server wrote, escape sequences included (the TUI sanitizes the
// tail when it draws it, ui/detail.go), so a log is evidence, not a
// cleaned-up copy.
func TestStderrLogKeepsRawBytes(t *testing.T) {
	dir := t.TempDir()
	r := newStderrRing(dir, "s")
	line := "evil \x1b]52;c;ZXZpbA==\x07\x1b[2K\r\u202e\u0085 \xff end"
	r.consume(strings.NewReader(line + "\n"))
	r.close()
	b, err := os.ReadFile(LogPath(dir, "s"))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != line+"\n" {
		t.Fatalf("log = %q, want the raw line %q", b, line)
	}
	if got := r.tail(1); len(got) != 1 || !strings.Contains(got[0], "\x1b]52;c;") {
		t.Fatalf("tail = %q", got)
	}
}
