package form

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestFromTextTypesWithTheSchema: a command line's key=text becomes the
// value of the property's type; text that is not of that type, and names
// the schema does not declare, stay text for the schema check to judge.
func TestFromTextTypesWithTheSchema(t *testing.T) {
	t.Parallel()
	f, err := Parse(json.RawMessage(`{"type": "object", "properties": {
		"count": {"type": "integer", "maximum": 5},
		"ratio": {"type": "number"},
		"on": {"type": "boolean"},
		"name": {"type": "string"},
		"level": {"type": "integer", "enum": [1, 2, 3]},
		"tags": {"type": "array", "items": {"type": "integer"}},
		"opts": {"type": "object"},
		"any": {}
	}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, text string
		want       any
	}{
		{"count", "3", int64(3)},
		{"count", "9", int64(9)}, // out of range: typed, the schema check says so
		{"count", "three", "three"},
		{"ratio", "0.5", 0.5},
		{"ratio", "NaN", "NaN"},
		{"on", "true", true},
		{"name", "42", "42"},
		{"level", "2", 2.0},
		{"level", "4", "4"},
		{"tags", "1, 2,3", []any{int64(1), int64(2), int64(3)}},
		{"opts", `{"a": 1}`, map[string]any{"a": 1.0}},
		{"opts", "not json", "not json"},
		{"any", "3", "3"},
		{"undeclared", "3", "3"},
	} {
		if got := f.FromText(tc.name, tc.text); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("FromText(%s, %q) = %#v, want %#v", tc.name, tc.text, got, tc.want)
		}
	}
}
