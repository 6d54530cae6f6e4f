package platform

import (
	"strings"
	"testing"
)

// A CappedBuffer keeps the first max bytes, says when more came, and
// reports every write whole, so the writer never sees an error.
func TestCappedBuffer(t *testing.T) {
	b := NewCappedBuffer(10)
	for _, s := range []string{"abc", "defg", "hijklmn", "opq"} {
		if n, err := b.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if b.String() != "abcdefghij" || string(b.Bytes()) != "abcdefghij" || !b.Over() {
		t.Errorf("kept %q, over %v; want the first 10 bytes and over", b.String(), b.Over())
	}
	exact := NewCappedBuffer(4)
	_, _ = exact.Write([]byte("abcd"))
	if exact.Over() || exact.String() != "abcd" {
		t.Errorf("exactly max bytes: %q, over %v", exact.String(), exact.Over())
	}
	big := NewCappedBuffer(1 << 10)
	_, _ = big.Write([]byte(strings.Repeat("x", 1<<20)))
	if len(big.Bytes()) != 1<<10 || !big.Over() {
		t.Errorf("a 1 MB write kept %d bytes", len(big.Bytes()))
	}
}
