package cliout

import (
	"bytes"
	"testing"
)

// TestTerminalWriter: what a command writes is sanitized, and a UTF-8
// character split across two writes arrives whole.
func TestTerminalWriter(t *testing.T) {
	var out bytes.Buffer
	w := NewTerminalWriter(&out)
	for _, p := range []string{"a\x1b]52;c;eA==\x07b\r\n", "\xe2\x80", "\xa6 done\t\u202e.\n"} {
		if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	if got := out.String(); got != "ab\n… done\t.\n" {
		t.Fatalf("got %q", got)
	}
}
