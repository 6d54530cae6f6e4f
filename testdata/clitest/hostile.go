package clitest

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Hostile is in every string of the hostile fixtures: it would write the
// clipboard (OSC 52), erase the line, return the carriage, reverse the text
// (U+202E), send C1 controls, hide characters (tag) and move the cursor up.
// testdata/faultserver -hostile serves the same text.
const Hostile = "\x1b]52;c;ZXZpbA==\x07\x1b[2K\r\u202e\u0085\u009b31m\U000E0041\x1b[1Aend"

// AssertTerminalSafe fails when out could drive a terminal or hide a
// character: a textsafe.HiddenRune other than newline (another control, DEL,
// ESC, a C1 control, a bidi, invisible or tag character).
func AssertTerminalSafe(t *testing.T, what, out string) {
	t.Helper()
	for i, r := range out {
		bad := (textsafe.HiddenRune(r) && r != '\n') || (r == utf8.RuneError && !strings.HasPrefix(out[i:], "\uFFFD"))
		if bad {
			lo, hi := max(0, i-60), min(len(out), i+60)
			t.Errorf("%s: %U at byte %d reaches the terminal: %q", what, r, i, out[lo:hi])
			return
		}
	}
}

// BuildFaultServer builds testdata/faultserver into dir.
func BuildFaultServer(t testing.TB, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "faultserver")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/mcpdeck/mcpdeck/testdata/faultserver").CombinedOutput(); err != nil {
		t.Fatalf("building faultserver: %v\n%s", err, out)
	}
	return bin
}
