package transports

import (
	"os"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// TestStderrLogKeepsRawBytes: the stderr log file and tail keep what the
// server wrote, escape sequences included (the TUI sanitizes the tail when
// it draws it, ui/detail.go), so a log is evidence, not a cleaned-up copy;
// only secrets are masked (TestStderrLogMasksSecrets).
func TestStderrLogKeepsRawBytes(t *testing.T) {
	dir := t.TempDir()
	r := newStderrRing(dir, "s", nil)
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

// TestStderrLogMasksSecrets: a secret of the server's set is masked in the
// log file, in a line of its own, in one longer than the bufio buffer
// (read in several chunks), and across logMaxLine, where the line is cut:
// what is masked reaches past the cut, so no half secret is left.
func TestStderrLogMasksSecrets(t *testing.T) {
	const key = "sekrit-9f3a11d2c7"
	dir := t.TempDir()
	r := newStderrRing(dir, "s", textsafe.NewMasker(key))
	long := strings.Repeat("x", 100<<10) + key + " tail"
	cut := strings.Repeat("y", logMaxLine-5) + key + strings.Repeat("z", 10)
	r.consume(strings.NewReader("key is " + key + "\n" + long + "\n" + cut + "\n" + "last " + key))
	r.close()
	b, err := os.ReadFile(LogPath(dir, "s"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if strings.Contains(string(b), key) || strings.Contains(string(b), key[:8]) || len(lines) != 4 {
		t.Fatalf("log has the key, or %d lines: %.200q", len(lines), b)
	}
	if lines[0] != "key is "+textsafe.Masked || lines[3] != "last "+textsafe.Masked {
		t.Errorf("lines %q, %q", lines[0], lines[3])
	}
	for i, l := range lines[1:3] {
		if !strings.HasSuffix(l, "… [line cut]") || len(l) > logMaxLine+len("… [line cut]") {
			t.Errorf("line %d: %d bytes, ends %q", i+2, len(l), l[max(0, len(l)-40):])
		}
	}
}
