package model

import (
	"strings"
	"testing"
)

// TestRedactDump: a traffic body or a stderr line loses every kind of
// secret it can carry — a configured value (also JSON-escaped), a JSON Web
// Token, a Bearer credential, a credential member of a JSON object, a
// NAME=value pair — and keeps the rest, progress tokens included; the count
// says how many values went.
func TestRedactDump(t *testing.T) {
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
	} {
		got, n := RedactDump(tc.in, tc.secrets...)
		if got != tc.want || n != tc.masked {
			t.Errorf("RedactDump(%q)\n got %q, %d\nwant %q, %d", tc.in, got, n, tc.want, tc.masked)
		}
	}
}

// FuzzRedactDump: no panic, and a secret of at least 6 bytes never
// survives, as written or as JSON would escape it.
func FuzzRedactDump(f *testing.F) {
	f.Add(`{"a":"SECRET-VALUE"}`, "SECRET-VALUE")
	f.Add(`{"a":"x\u0026y-long"}`, "x&y-long")
	f.Add("token=abc eyJabcd.eyJabcd.sig", "")
	f.Fuzz(func(t *testing.T, s, secret string) {
		got, n := RedactDump(s, secret)
		if n < 0 {
			t.Fatalf("negative count %d", n)
		}
		if len(secret) >= minSecretLen && !strings.Contains(secret, "*") && strings.Contains(got, secret) {
			t.Fatalf("RedactDump(%q, %q) = %q keeps the secret", s, secret, got)
		}
	})
}
