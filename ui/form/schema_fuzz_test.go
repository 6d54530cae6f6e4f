package form

import (
	"encoding/json"
	"testing"
)

// FuzzSchemaForm feeds the form generator schemas a hostile or broken server
// could send: it must never panic, and a form it builds must give values or
// an error.
func FuzzSchemaForm(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`,
		`{"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":5,"default":3}}}`,
		`{"type":"object","properties":{"e":{"enum":["x",1,null,{"k":1}],"default":1}}}`,
		`{"type":"object","properties":{"l":{"type":"array","items":{"type":"number"},"default":[1,"2"]}}}`,
		`{"type":"object","properties":{"m":{"type":"array","items":{"enum":["a","b"]},"default":["b","z"]}}}`,
		`{"type":["object","null"],"properties":{"b":{"type":["boolean","null"],"default":"yes"}}}`,
		`{"type":"object","properties":{"o":{"type":"object","default":{"k":[1,2]}},"x":true,"y":5}}`,
		`{"type":"object","properties":{"a":{},"a":{"type":"string"}}}`,
		`{"type":"object","properties":{"t":{"type":"string","oneOf":[{"const":"a","title":"A"},{"const":null},{"const":"b","title":"A"}],"default":"b"}}}`,
		`{"type":"object","properties":{"m":{"type":"array","items":{"anyOf":[{"const":1,"title":"one"},{"type":"string"}]},"default":[1]}}}`,
		`{"type":"object","properties":{"p":{"enum":["x","y"],"enumNames":["X"],"oneOf":[7]}}}`,
		`{"type":"string"}`, `[]`, `null`, `{"properties":[]}`, `{"properties":{"":{"type":7}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sf, err := Parse(json.RawMessage(data))
		if err != nil {
			return
		}
		_ = sf.Fields()
		args, err := sf.Values()
		if err == nil {
			_ = sf.Validate(args)
		}
		_, _ = sf.StringValues()
	})
}
