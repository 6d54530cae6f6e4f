package schema

import (
	"encoding/json"
	"math"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Input is a tool's compiled input schema and, when the schema is
// simple enough, a check that confirms the common valid case without the
// general validator's allocations (it costs about a microsecond per call,
// the performance target gives the engine 10 % over a bare in-process call).
type Input struct {
	full     *jsonschema.Schema // nil: accepts anything
	simple   *simpleSchema      // nil: always validate with full
	required map[string]bool    // top-level required properties (nulls.go)
}

// New compiles raw (see compile) and recognizes a simple one. An empty
// schema accepts anything.
func New(raw json.RawMessage) (*Input, error) {
	full, err := compile(raw)
	if err != nil || full == nil {
		return &Input{full: full}, err
	}
	return &Input{full: full, simple: parseSimpleSchema(raw), required: requiredSet(raw)}, nil
}

// Validate checks args: the simple check may only say "valid"; anything
// else goes to the full validator, which also words the errors (an
// ErrInvalidArguments naming each field).
func (s *Input) Validate(tool string, args map[string]any) error {
	if s.simple.accepts(args) && jsonNative(args) {
		return nil
	}
	return validate(s.full, tool, args)
}

// simpleSchema is an object schema made only of top-level properties with
// one scalar type each and a required list: what most tools declare.
type simpleSchema struct {
	types    map[string]string // property → "string", "number", "integer" or "boolean"
	required []string
}

// parseSimpleSchema returns the simple form of raw, or nil when raw uses
// anything else (then the full validator always runs).
func parseSimpleSchema(raw json.RawMessage) *simpleSchema {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return nil
	}
	out := &simpleSchema{types: map[string]string{}}
	for k, v := range top {
		switch k {
		case "type":
			var t string
			if json.Unmarshal(v, &t) != nil || t != "object" {
				return nil
			}
		case "properties":
			var props map[string]map[string]json.RawMessage
			if json.Unmarshal(v, &props) != nil {
				return nil
			}
			for name, p := range props {
				t, ok := scalarType(p)
				if !ok {
					return nil
				}
				out.types[name] = t
			}
		case "required":
			if json.Unmarshal(v, &out.required) != nil {
				return nil
			}
		case "description", "title", "$schema":
		default:
			return nil // additionalProperties, $defs, anyOf, ...: not simple
		}
	}
	if _, ok := top["type"]; !ok {
		return nil
	}
	return out
}

// scalarType returns the type of a property schema that only says "type"
// (plus annotations), for the four scalar types.
func scalarType(p map[string]json.RawMessage) (string, bool) {
	var t string
	for k, v := range p {
		switch k {
		case "type":
			if json.Unmarshal(v, &t) != nil {
				return "", false
			}
		case "description", "title", "default", "examples":
		default:
			return "", false
		}
	}
	switch t {
	case "string", "number", "integer", "boolean":
		return t, true
	}
	return "", false
}

// accepts reports whether args certainly satisfy s. false means "not
// certain": the caller runs the full validator. A nil s is never certain.
func (s *simpleSchema) accepts(args map[string]any) bool {
	if s == nil {
		return false
	}
	for _, r := range s.required {
		if _, ok := args[r]; !ok {
			return false
		}
	}
	for k, v := range args {
		if t, ok := s.types[k]; ok && !hasType(v, t) {
			return false
		}
	}
	return true
}

// hasType reports whether v is certainly a JSON value of type t.
func hasType(v any, t string) bool {
	switch t {
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number", "integer":
		switch n := v.(type) {
		case int, int32, int64:
			return true
		case float64:
			return t == "number" || n == math.Trunc(n) && !math.IsInf(n, 0)
		}
	}
	return false
}
