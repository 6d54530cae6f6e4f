package form

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestEnumOptions: every form of a titled enum is a choice labelled by its
// titles and answering with its values; one label twice is told apart by
// value; a oneOf of schemas (not of consts) is no choice.
func TestEnumOptions(t *testing.T) {
	for _, tc := range []struct {
		name, prop string
		kind       fieldKind
		labels     []string
		values     []any
	}{
		{
			"oneOf", `{"type":"string","oneOf":[{"const":"h1","title":"Superman"},{"const":"h2","title":"Batman"}]}`,
			kindEnum,
			[]string{"Superman", "Batman"},
			[]any{"h1", "h2"},
		},
		{
			"items anyOf", `{"type":"array","items":{"anyOf":[{"const":"f1","title":"Tuna"},{"const":"f2"}]}}`,
			kindMulti,
			[]string{"Tuna", "f2"},
			[]any{"f1", "f2"},
		},
		{
			"enumNames", `{"type":"string","enum":["p1","p2"],"enumNames":["Cats"]}`,
			kindEnum,
			[]string{"Cats", "p2"},
			[]any{"p1", "p2"},
		},
		{
			"same title", `{"oneOf":[{"const":1,"title":"One"},{"const":null,"title":"One"}]}`,
			kindEnum,
			[]string{"One (1)", "One (null)"},
			[]any{float64(1), nil},
		},
		{"schemas", `{"oneOf":[{"type":"string"},{"type":"number"}]}`, kindJSON, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sf, err := Parse(json.RawMessage(`{"type":"object","properties":{"x":` + tc.prop + `}}`))
			if err != nil {
				t.Fatal(err)
			}
			ff := sf.fields[0]
			var labels []string
			var values []any
			for _, o := range ff.opts {
				labels, values = append(labels, o.label), append(values, o.value)
			}
			if ff.kind != tc.kind || !reflect.DeepEqual(labels, tc.labels) || !reflect.DeepEqual(values, tc.values) {
				t.Fatalf("kind %v, labels %q, values %v; want %v, %q, %v", ff.kind, labels, values, tc.kind, tc.labels, tc.values)
			}
		})
	}
}
