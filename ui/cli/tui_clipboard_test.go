package cli

import (
	"bytes"
	"encoding/base64"
	"testing"
)

// TestClipboardWriterSendsOSC52: y in the sign-in panel reaches the
// terminal as one OSC 52 sequence carrying exactly the URL, which a
// terminal (also at the far end of SSH) puts on its clipboard.
func TestClipboardWriterSendsOSC52(t *testing.T) {
	var term bytes.Buffer
	u := "https://auth.example.com/authorize?state=a&redirect_uri=http%3A%2F%2F127.0.0.1%3A38123%2Fcallback"
	if err := clipboardWriter(&term)(u); err != nil {
		t.Fatal(err)
	}
	want := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(u)) + "\x07"
	if term.String() != want {
		t.Errorf("wrote %q, want %q", term.String(), want)
	}
}
