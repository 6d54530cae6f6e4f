package model

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestConfigHash(t *testing.T) {
	parse := func(s string) ServerConfig {
		t.Helper()
		var c ServerConfig
		if err := json.Unmarshal([]byte(s), &c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	base := parse(`{"command":"npx","args":["-y","pkg"],"env":{"A":"1","B":"2"},"x-extra":{"b":1,"a":[1,2]}}`)
	h := ConfigHash(base)
	if len(h) != 64 || strings.Trim(h, "0123456789abcdef") != "" {
		t.Fatalf("not a hex SHA-256: %q", h)
	}
	same := []string{
		`{"args":["-y","pkg"],"command":"npx","env":{"B":"2","A":"1"},"x-extra":{"a":[1,2],"b":1}}`,
		"{\n  \"type\": \"stdio\",\n  \"command\": \"npx\", \"args\": [\"-y\", \"pkg\"],\n  \"env\": {\"A\": \"1\", \"B\": \"2\"}, \"x-extra\": { \"b\" : 1, \"a\" : [ 1, 2 ] }\n}",
	}
	for _, s := range same {
		if got := ConfigHash(parse(s)); got != h {
			t.Errorf("layout, key order or implicit stdio changed the hash: %s", s)
		}
	}
	different := []string{
		`{"command":"npx","args":["-y","pkg2"],"env":{"A":"1","B":"2"},"x-extra":{"b":1,"a":[1,2]}}`,
		`{"command":"npx","args":["pkg","-y"],"env":{"A":"1","B":"2"},"x-extra":{"b":1,"a":[1,2]}}`,
		`{"command":"npx","args":["-y","pkg"],"env":{"A":"1","B":"3"},"x-extra":{"b":1,"a":[1,2]}}`,
		`{"command":"npx","args":["-y","pkg"],"env":{"A":"1","B":"2"},"x-extra":{"b":2,"a":[1,2]}}`,
		`{"command":"npx","args":["-y","pkg"],"env":{"A":"1","B":"2"}}`,
	}
	for _, s := range different {
		if ConfigHash(parse(s)) == h {
			t.Errorf("a real change kept the hash: %s", s)
		}
	}
	// Scope is not part of the definition: the same Raw in two scopes hashes equally.
	s1 := Server{Scope: ScopeUser, Raw: base}
	s2 := Server{Scope: ScopeProject, Raw: base}
	if ConfigHash(s1.Raw) != ConfigHash(s2.Raw) {
		t.Error("scope leaked into the hash")
	}
}

func TestDiff(t *testing.T) {
	old := ServerConfig{Command: "npx", Args: []string{"-y", "safe"}}
	if d := Diff(old, old); d != "" {
		t.Errorf("equal configs must give no diff, got:\n%s", d)
	}
	changed := ServerConfig{Command: "npx", Args: []string{"-y", "evil"}, Env: map[string]string{"X": "1"}}
	d := Diff(old, changed)
	for _, want := range []string{`-     "safe"`, `+     "evil"`, `+   "env": {`, `+     "X": "1"`, `    "command": "npx",`} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}
	if i, j := strings.Index(d, `- `), strings.Index(d, `+     "evil"`); i < 0 || i > j {
		t.Errorf("removed lines should come before added ones:\n%s", d)
	}
}
