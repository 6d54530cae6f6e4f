package textsafe

import (
	"encoding/base64"
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
	if m.Longest() != len(base64.StdEncoding.EncodeToString([]byte("1234567890123456"))) { // its longest form
		t.Errorf("Longest = %d", m.Longest())
	}
}

// TestMaskerFindsTheSecretAsServersReencodeIt: a server that names a known
// secret (a key in its URL's path, a token it was sent) often re-encodes
// it first: percent-encoded as JavaScript's encodeURIComponent or Python's
// quote do (space as %20, !'()* kept or escaped, hex in either case), in
// JSON as PHP (\/) or Python (\u00fc) write it, or base64 (with and
// without padding, standard and URL alphabets). Each form is masked.
func TestMaskerFindsTheSecretAsServersReencodeIt(t *testing.T) {
	secrets := map[string][]string{
		"wJalrXUtnFEMI/K7MDENG+bPx=": {
			"wJalrXUtnFEMI%2FK7MDENG%2BbPx%3D", "wJalrXUtnFEMI%2fK7MDENG%2bbPx%3d", `wJalrXUtnFEMI\/K7MDENG+bPx=`,
			"d0phbHJYVXRuRkVNSS9LN01ERU5HK2JQeD0=", "d0phbHJYVXRuRkVNSS9LN01ERU5HK2JQeD0",
		},
		"a b(c)!d*e'f":  {"a%20b(c)!d*e'f", "a%20b%28c%29%21d%2Ae%27f", "a%20b%28c%29%21d%2ae%27f", "YSBiKGMpIWQqZSdm"},
		"clé-secrète-1": {`cl\u00e9-secr\u00e8te-1`, "cl%C3%A9-secr%C3%A8te-1", "cl%c3%a9-secr%c3%a8te-1", "Y2zDqS1zZWNyw6h0ZS0x"},
		"k?>~>~>~>~":    {"az8-fj5-Pn4-fg", "az8-fj5-Pn4-fg==", "az8+fj5+Pn4+fg", "az8+fj5+Pn4+fg=="},
	}
	var all []string
	for s := range secrets {
		all = append(all, s)
	}
	m := NewMasker(all...)
	for s, forms := range secrets {
		for _, f := range forms {
			if got := m.Mask("the server said /api/" + f + "/mcp and " + f + "."); got != "the server said /api/"+Masked+"/mcp and "+Masked+"." {
				t.Errorf("secret %q as %q: %q", s, f, got)
			}
		}
	}
}
