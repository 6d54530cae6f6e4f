package schema

import (
	"encoding/json"
	"math"
	"testing"
)

// TestSimpleSchemaNeverAcceptsWhatFullRejects checks the fast path against
// the full validator over schemas and arguments of every kind: it may only
// say "valid" where the full validator agrees, and it must recognize the
// usual tool schema (else the fast path is dead code).
func TestSimpleSchemaNeverAcceptsWhatFullRejects(t *testing.T) {
	schemas := []string{
		`{"type":"object","properties":{"a":{"type":"number","description":"x"},"b":{"type":"number"}},"required":["a","b"]}`,
		`{"type":"object","properties":{"n":{"type":"integer"},"s":{"type":"string","default":"x"},"f":{"type":"boolean"}}}`,
		`{"type":"object","properties":{"n":{"type":"integer","minimum":1}}}`,
		`{"type":"object","properties":{"s":{"type":"string","enum":["a"]}}}`,
		`{"type":"object","properties":{"s":{"type":["string","null"]}}}`,
		`{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string"}}}`,
		`{"type":"object","properties":{"o":{"type":"object"}},"required":["o"]}`,
		`{"properties":{"a":{"type":"string"}}}`,
		`{"type":"object","properties":{"a":true}}`,
		`{"type":"object","required":["a"]}`,
		`{"type":"object"}`,
	}
	args := []map[string]any{
		nil,
		{},
		{"a": 1, "b": 2.5},
		{"a": "1", "b": 2},
		{"a": 1},
		{"n": 2},
		{"n": 2.0},
		{"n": 2.5},
		{"n": math.MaxInt64},
		{"n": int32(-3)},
		{"s": "x"},
		{"s": nil},
		{"s": 3},
		{"f": true},
		{"f": "true"},
		{"o": map[string]any{}},
		{"o": "x"},
		{"extra": []any{1}},
		{"a": "x", "extra": 1},
		{"a": struct{ X int }{1}},
		{"n": uint8(3)},
		{"n": json.Number("4")},
	}
	recognized := 0
	for i, raw := range schemas {
		s, err := New(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("schema %d: %v", i, err)
		}
		if s.simple != nil {
			recognized++
		}
		for _, a := range args {
			fast := s.simple.accepts(a) && jsonNative(a)
			full := validate(s.full, "t", a)
			if fast && full != nil {
				t.Errorf("schema %s args %v: fast path accepts, full validator says %v", raw, a, full)
			}
			if got := s.Validate("t", a); (got == nil) != (full == nil) || (got != nil && got.Error() != full.Error()) {
				t.Errorf("schema %s args %v: validate %v, full %v", raw, a, got, full)
			}
		}
	}
	if recognized != 4 {
		t.Errorf("%d schemas recognized as simple, want 4 (the first two and the last two)", recognized)
	}
	add, _ := New(json.RawMessage(schemas[0]))
	if !add.simple.accepts(map[string]any{"a": 2, "b": 3}) {
		t.Error("the add tool's valid arguments are not accepted by the fast path")
	}
}
