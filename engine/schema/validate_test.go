package schema

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestValidateArgs(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"opts":{"type":"object","properties":{"n":{"type":"integer","minimum":1}}}},"required":["a"]}`)
	sch, err := compile(schema)
	if err != nil {
		t.Fatal(err)
	}
	if err := validate(sch, "add", map[string]any{"a": 1, "opts": map[string]any{"n": 2}}); err != nil {
		t.Fatalf("valid args rejected: %v", err)
	}
	cases := map[string]struct {
		args map[string]any
		want string
	}{
		"wrong type":   {map[string]any{"a": "x"}, `field "a"`},
		"missing":      {map[string]any{}, "missing property 'a'"},
		"nested field": {map[string]any{"a": 1, "opts": map[string]any{"n": 0}}, `field "opts.n"`},
	}
	for name, c := range cases {
		err := validate(sch, "add", c.args)
		if !errors.Is(err, ErrInvalidArguments) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want ErrInvalidArguments mentioning %s", name, err, c.want)
		}
	}
	if s, err := compile(nil); err != nil || s != nil {
		t.Errorf("empty schema: %v %v", s, err)
	}
	// A remote $ref is never fetched (noLoader does no I/O): it accepts
	// anything, and the rest of the schema still applies.
	remote, err := compile(json.RawMessage(`{"type":"object","properties":{"p":{"$ref":"http://example.com/x.json"},"a":{"type":"integer"}}}`))
	if err != nil {
		t.Fatalf("a schema with a remote $ref cannot be used: %v", err)
	}
	if err := validate(remote, "t", map[string]any{"p": 123}); err != nil {
		t.Errorf("the remote $ref's property refused a value: %v", err)
	}
	if err := validate(remote, "t", map[string]any{"a": "x"}); !errors.Is(err, ErrInvalidArguments) {
		t.Errorf("the rest of the schema is not applied: %v", err)
	}
}
