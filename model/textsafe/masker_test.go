package textsafe

import (
	"testing"
)

// TestMaskerRules: a value shorter than 6 bytes or a short number (a
// port, a version, an address) is not masked wherever it appears; a longer
// one is, also as a URL's query or path and JSON escape it.
func TestMaskerRules(t *testing.T) {
	m := NewMasker("8080", "dev", "127.0.0.1", "1.24.0", "10:30:00", "us-east-1", "1234567890123456", "a b/c+d&e", Masked)
	for in, want := range map[string]string{
		"port 8080 on 127.0.0.1, go 1.24.0 at 10:30:00 in dev":        "port 8080 on 127.0.0.1, go 1.24.0 at 10:30:00 in dev",
		"region us-east-1, account 1234567890123456":                  "region ****, account ****",
		"q=a+b%2Fc%2Bd%26e path /a%20b%2Fc+d&e/ json a b/c+d\\u0026e": "q=**** path /****/ json ****",
	} {
		if got := m.Mask(in); got != want {
			t.Errorf("Mask(%q)\n got %q\nwant %q", in, got, want)
		}
	}
	if m.Longest() != len("1234567890123456") {
		t.Errorf("Longest = %d", m.Longest())
	}
}
