package schema

import (
	"encoding/json"
	"testing"
)

// FuzzValidateArgs compiles arbitrary tool schemas and validates arbitrary
// arguments: never a panic, and failures are always ErrInvalidArguments.
func FuzzValidateArgs(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"type":"number"}},"required":["a"]}`, `{"a":"x"}`)
	f.Add(`{"$ref":"#/$defs/x","$defs":{"x":{"type":"object"}}}`, `{}`)
	f.Add(`{"type":"object","additionalProperties":false}`, `{"z":1}`)
	f.Fuzz(func(t *testing.T, schema, args string) {
		sch, err := compile(json.RawMessage(schema))
		if err != nil || sch == nil {
			return
		}
		var a map[string]any
		if json.Unmarshal([]byte(args), &a) != nil {
			return
		}
		_ = validate(sch, "t", a)
	})
}
