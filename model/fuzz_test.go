package model

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// FuzzParse feeds arbitrary bytes to the configuration parser: it must never
// panic, must accept exactly what encoding/json calls valid (top-level
// objects), must locate every problem inside the document, and every server
// it decodes must survive a marshal/unmarshal round trip with the same hash.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"mcpServers":{"a":{"command":"npx","args":["-y","x"],"env":{"K":"${V}"}}}}`,
		`{"mcpServers":{"r":{"type":"http","url":"https://e.com","headers":{"A":"b"},"oauth":{"clientId":"c","callbackPort":8080,"scopes":["s"]},"x":[1,{"y":null}]}}}`,
		"\xEF\xBB\xBF{\"mcpServers\":{}}",
		`{"mcpServers":{"a":{"args":"str"}}}`,
		`{"a":1,"a":2}`,
		`{"mcpServers":{"a":{},"a":{}}}`,
		`{"mcpServers": {`,
		`[1,2]`,
		`{"mcpServers":{"a":{"oauth":{"callbackPort":1e3}}}}`,
		`{"k":"\ud83d\ude00 \u0000"}`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, prob := Parse("fuzz.json", data)
		if prob != nil {
			if prob.File != "fuzz.json" || prob.Message == "" {
				t.Fatalf("problem without location or message: %+v", prob)
			}
			if prob.Line > 0 && prob.Line > strings.Count(string(data), "\n")+1 {
				t.Fatalf("problem line %d beyond the document", prob.Line)
			}
			return
		}
		doc := file.Doc
		if len(strings.TrimSpace(string(doc))) > 0 && !json.Valid(doc) {
			t.Fatalf("parser accepted invalid JSON %q", doc)
		}
		defs, _ := ServersIn(file, ScopeUser, "fuzz.json")
		for _, d := range defs {
			if len(d.Problems) > 0 {
				continue
			}
			b, err := json.Marshal(d.Raw)
			if err != nil {
				t.Fatalf("marshal %q: %v", d.Name, err)
			}
			var back ServerConfig
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatalf("re-parse of %s: %v", b, err)
			}
			if ConfigHash(back) != ConfigHash(d.Raw) {
				t.Fatalf("round trip changed %q:\n%s", d.Name, Diff(d.Raw, back))
			}
		}
	})
}

// FuzzExpand: no panic; text without "${" is untouched; with every variable
// set (to "") nothing is missing and the result never grows.
func FuzzExpand(f *testing.F) {
	for _, s := range []string{"${A}", "${A:-d}", "$$", "$", "$${A}", "${", "${1}", "a${B}c${C:-x}", "${A:-${B}}", "é${A}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		none := func(string) (string, bool) { return "", false }
		out, missing := Expand(s, none)
		if !strings.Contains(s, "${") && (out != s || missing != nil) {
			t.Fatalf("Expand(%q) = %q %v without any ${", s, out, missing)
		}
		for _, m := range missing {
			if !strings.HasPrefix(m, "${") || !strings.HasSuffix(m, "}") || !validVarName(m[2:len(m)-1]) {
				t.Fatalf("bad missing entry %q", m)
			}
		}
		empty := func(string) (string, bool) { return "", true }
		out2, missing2 := Expand(s, empty)
		if len(missing2) != 0 || len(out2) > len(s) {
			t.Fatalf("Expand(%q) with all set = %q %v", s, out2, missing2)
		}
	})
}

// FuzzNormalize: names come out in the tool-name alphabet, one character per
// input character, idempotent; tool names respect the 64-char limit; Sanitize
// and Truncate keep text valid.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"github", "my.server", "a b/c", "émoji🙂", "\x00\xff", strings.Repeat("x", 100), "mcp__a__b", "\u202Eevil"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := NormalizeName(s)
		for _, r := range n {
			if r != '_' && r != '-' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') {
				t.Fatalf("NormalizeName(%q) = %q has %q", s, n, r)
			}
		}
		if len(n) != utf8.RuneCountInString(s) || NormalizeName(n) != n {
			t.Fatalf("NormalizeName(%q) = %q: not one char per rune or not idempotent", s, n)
		}
		tn := ToolName(s, s)
		if len(tn) > MaxToolNameLen || NormalizeName(tn) != tn || tn != ToolName(s, s) {
			t.Fatalf("ToolName(%q) = %q", s, tn)
		}
		clean := textsafe.Sanitize(s)
		if !utf8.ValidString(clean) || textsafe.Sanitize(clean) != clean {
			t.Fatalf("Sanitize(%q) = %q: invalid or not idempotent", s, clean)
		}
		for _, r := range clean {
			if r != '\n' && r != '\t' && textsafe.HiddenRune(r) {
				t.Fatalf("Sanitize(%q) kept %q", s, r)
			}
		}
		if tr := textsafe.Truncate(clean, 10); !utf8.ValidString(tr) {
			t.Fatalf("Truncate broke UTF-8: %q", tr)
		}
	})
}
