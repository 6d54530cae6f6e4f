package registry

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// TestCheckTextRefusesTheHiddenSet: the registry refuses exactly the
// characters the sanitizer hides (textsafe.HiddenRune), no more and no less,
// and says which one it found; a zip entry's name likewise.
func TestCheckTextRefusesTheHiddenSet(t *testing.T) {
	check := func(r rune) {
		s := "a" + string(r) + "b"
		err := checkText("the value", s)
		if hidden := textsafe.HiddenRune(r); hidden != (err != nil) {
			t.Errorf("checkText(%U): %v, but HiddenRune = %v", r, err, hidden)
			return
		}
		if err != nil && !strings.Contains(err.Error(), fmt.Sprintf("control character %U", r)) {
			t.Errorf("checkText(%U) = %v, does not name it", r, err)
		}
	}
	for r := rune(0); r < 0x30000; r++ {
		if utf8.ValidRune(r) {
			check(r)
		}
	}
	for r := rune(0xE0000); r < 0xE1000; r++ {
		check(r)
	}
	for _, r := range []rune{0x00AD, 0x2061, 0x2064, 0x180E, 0xFFF9, 0xFFFB, 0x3164, 0x115F, 0x1160, 0xFFA0, 0x2028, 0x2029} {
		if _, err := entryPath("server" + string(r) + "/index.js"); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%U", r)) {
			t.Errorf("entryPath with %U: %v", r, err)
		}
	}
	if p, err := entryPath("server/日本語─.js"); err != nil || p != "server/日本語─.js" {
		t.Errorf("entryPath of visible text: %q %v", p, err)
	}
}
