package schema

import (
	"encoding/json"
	"maps"
)

// requiredSet returns the names in raw's top-level "required" list (nil when
// there is none or raw is not an object schema).
func requiredSet(raw json.RawMessage) map[string]bool {
	var top struct {
		Required []string `json:"required"`
	}
	if json.Unmarshal(raw, &top) != nil || len(top.Required) == 0 {
		return nil
	}
	set := make(map[string]bool, len(top.Required))
	for _, r := range top.Required {
		set[r] = true
	}
	return set
}

// OmitNulls drops the top-level arguments whose value is null and whose name
// the schema does not require: a null for an optional property means "not
// given" (forms and scripts produce it for an empty field), and servers
// mirror arguments into headers and types where a null is refused, so it is
// neither validated nor sent. A required property keeps its null and the
// validator judges it. args itself is never changed; a copy is returned when
// something was dropped.
func (s *Input) OmitNulls(args map[string]any) map[string]any {
	if s.full == nil {
		return args // no schema: nothing is known to be optional
	}
	var out map[string]any
	for k, v := range args {
		if v != nil || s.required[k] {
			continue
		}
		if out == nil {
			out = maps.Clone(args)
		}
		delete(out, k)
	}
	if out == nil {
		return args
	}
	return out
}
