package form

import (
	"encoding/json"
	"fmt"
)

// enumOption is one value a choice field offers and the label the person
// picks it by.
type enumOption struct {
	value any
	label string
}

// enumOptions are the values n allows, each with its label, or nil when n
// is not a choice. Three forms say it: enum (labelled by the value, or by
// enumNames, the older way to title them), and oneOf or anyOf whose every
// entry is a const (labelled by its title: MCP elicitation's titled
// enums, single choice with oneOf, multiple with items.anyOf). Two options
// with one label are told apart by their values.
func (n *schemaNode) enumOptions() []enumOption {
	var out []enumOption
	switch {
	case len(n.Enum) > 0:
		for i, v := range n.Enum {
			o := enumOption{value: v, label: valueLabel(v)}
			if i < len(n.EnumNames) && n.EnumNames[i] != "" {
				o.label = n.EnumNames[i]
			}
			out = append(out, o)
		}
	case len(n.OneOf) > 0:
		out = constOptions(n.OneOf)
	case len(n.AnyOf) > 0:
		out = constOptions(n.AnyOf)
	}
	seen := map[string]int{}
	for _, o := range out {
		seen[o.label]++
	}
	for i, o := range out {
		if seen[o.label] > 1 {
			out[i].label = o.label + " (" + valueLabel(o.value) + ")"
		}
	}
	return out
}

// constOptions reads oneOf or anyOf entries that are each {"const": v,
// "title": t}; nil when any entry is something else (a schema of its own:
// not a choice between values).
func constOptions(entries []json.RawMessage) []enumOption {
	out := make([]enumOption, 0, len(entries))
	for _, e := range entries {
		var c map[string]json.RawMessage
		if json.Unmarshal(e, &c) != nil {
			return nil
		}
		raw, ok := c["const"] // present, even as null
		var v any
		if !ok || json.Unmarshal(raw, &v) != nil {
			return nil
		}
		o := enumOption{value: v}
		if json.Unmarshal(c["title"], &o.label) != nil || o.label == "" {
			o.label = valueLabel(v)
		}
		out = append(out, o)
	}
	return out
}

// valueLabel is an option's value as the person reads it: a string as
// itself, anything else as JSON.
func valueLabel(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// optionIndex is the last index of opts whose value reads as v does, -1
// for none (a nil v matches nothing).
func optionIndex(opts []enumOption, v any) int {
	at := -1
	if v == nil {
		return at
	}
	for i, o := range opts {
		if fmt.Sprint(o.value) == fmt.Sprint(v) {
			at = i
		}
	}
	return at
}
