package textsafe

import (
	"regexp"
	"strings"
	"testing"
)

// TestMaskerDump: a traffic body or a stderr line loses every kind of
// secret it can carry — a configured value (also JSON-escaped), a JSON Web
// Token, a Bearer credential, a credential member of a JSON object, a
// NAME=value pair — and keeps the rest, progress tokens included; the count
// says how many values went.
func TestMaskerDump(t *testing.T) {
	jwt := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtZSJ9.c2lnbmF0dXJlLWhlcmU"
	for _, tc := range []struct {
		in, want string
		secrets  []string
		masked   int
	}{
		{`{"result":{"text":"key is sk-live&42x"}}`, `{"result":{"text":"key is ****"}}`, []string{"sk-live&42x"}, 1},
		{`{"result":{"text":"key is sk-live\u002642x"}}`, `{"result":{"text":"key is ****"}}`, []string{"sk-live&42x"}, 1},
		{`{"text":"id ` + jwt + ` ok"}`, `{"text":"id **** ok"}`, nil, 1},
		{`{"access_token": "opaque-value", "progressToken": "tok-1", "name": "x"}`, `{"access_token": "****", "progressToken": "tok-1", "name": "x"}`, nil, 1},
		{`{"client_secret":"c\"s","refreshToken":"r"}`, `{"client_secret":"****","refreshToken":"****"}`, nil, 2},
		{"starting with GITHUB_TOKEN=ghp_abcdef and api-key: xyz123 on port 80", "starting with GITHUB_TOKEN=**** and api-key: **** on port 80", nil, 2},
		{"Authorization: Bearer abc.def-123456", "Authorization: **** ****", nil, 2},
		{"TOKEN_FILE=/etc/x plain words", "TOKEN_FILE=/etc/x plain words", nil, 0},
		{"already **** here", "already **** here", nil, 0},
		{`{"text":"{\"access_token\": \"opaque\", \"n\": 1}"}`, `{"text":"{\"access_token\": \"****\", \"n\": 1}"}`, nil, 1},
		{`password="two words" user=me`, `password="****" user=me`, nil, 1},
		{`{"maxTokens": 100, "token": null}`, `{"maxTokens": 100, "token": null}`, nil, 0},
		{`{"refresh_token":"cut-off-in-the-midd`, `{"refresh_token":"****`, nil, 1},
	} {
		got, n := NewMasker(tc.secrets...).Dump(tc.in)
		if got != tc.want || n != tc.masked {
			t.Errorf("Dump(%q)\n got %q, %d\nwant %q, %d", tc.in, got, n, tc.want, tc.masked)
		}
	}
}

// TestTokenJudge: a long mix of letters and digits is flagged; words,
// paths, URLs, what was masked and what the judge knows harmless are not.
func TestTokenJudge(t *testing.T) {
	j := NewTokenJudge("/tmp/TestDoctorBundleRun1898447186/settings.json")
	for s, want := range map[string]bool{
		"source /tmp/TestDoctorBundleRun1898447186/settings.json": false, "in /tmp/TestDoctorBundleRun1898447187/x": true,
		"using key ghp_a1B2c3D4e5F6g7H8i9J0k":                                       true,
		"digest 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08":   true,
		"plain words and a /long/path/to/file1.txt, https://example.com/abc/def123": false,
		"key ****, short a1b2": false,
	} {
		if got := j.Flags(s); got != want {
			t.Errorf("Flags(%q) = %v", s, got)
		}
	}
}

// FuzzMaskerDump: no panic, and a secret of at least 6 bytes never
// survives, as written or as JSON would escape it.
func FuzzMaskerDump(f *testing.F) {
	f.Add(`{"a":"SECRET-VALUE"}`, "SECRET-VALUE")
	f.Add(`{"a":"x\u0026y-long"}`, "x&y-long")
	f.Add("token=abc eyJabcd.eyJabcd.sig", "")
	f.Fuzz(func(t *testing.T, s, secret string) {
		got, n := NewMasker(secret).Dump(s)
		if n < 0 {
			t.Fatalf("negative count %d", n)
		}
		if WorthMasking(secret) && !strings.Contains(secret, "*") && strings.Contains(got, secret) {
			t.Fatalf("Dump(%q, %q) = %q keeps the secret", s, secret, got)
		}
	})
}

// textURLRegexp is how URLs in text were found before replaceURLs: the
// scanner must find exactly what it found.
var textURLRegexp = regexp.MustCompile("[A-Za-z][A-Za-z0-9+.-]*://[^\\s\"'<>`]+")

// FuzzReplaceURLsMatchesRegexp: replaceURLs finds the same URLs, at the
// same places, as the regular expression it replaced.
func FuzzReplaceURLsMatchesRegexp(f *testing.F) {
	for _, s := range []string{"see http://a/b?x=1, then 1ws://h", "://x a:// b:///c", `Post "https://u:p@h/x": EOF`, "x+y.z-1://q`r", "http://a?u=http://b c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		mark := func(u string) string { return "<" + u + ">" }
		if got, want := replaceURLs(s, mark), textURLRegexp.ReplaceAllStringFunc(s, mark); got != want {
			t.Fatalf("replaceURLs(%q)\n got %q\nwant %q", s, got, want)
		}
	})
}
