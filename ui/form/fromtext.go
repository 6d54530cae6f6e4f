package form

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// FromText is the value text stands for in the property name, given on a
// command line (`mcpdeck call s t count=3`): a number, integer or boolean
// property takes the value text reads as, an enum the member text names, an
// array of scalars a comma-separated list (as the form's list field reads
// it), an object or array the JSON text is. Text that does not read as the
// property's type, a string property and a property the schema does not
// declare keep text as it is: the tool's schema check then says what is
// wrong, as it does for JSON arguments.
func (f *Schema) FromText(name, text string) any {
	for _, ff := range f.fields {
		if ff.name == name {
			return ff.node.fromText(text)
		}
	}
	return text
}

func (n *schemaNode) fromText(text string) any {
	if opts := n.enumOptions(); len(opts) > 0 {
		if i := optionIndex(opts, text); i >= 0 {
			return opts[i].value
		}
		for _, o := range opts { // a titled choice, by its title
			if o.label == text {
				return o.value
			}
		}
		return text
	}
	switch t := n.typ(); t {
	case "", "string":
		return text
	case "number", "integer", "boolean":
		if v, ok := scalarFromText(strings.TrimSpace(text), t); ok {
			return v
		}
		return text
	case "array":
		if n.Items != nil && (isScalar(n.Items.typ()) || len(n.Items.enumOptions()) > 0) {
			out := []any{}
			for _, p := range strings.Split(text, ",") {
				if p = strings.TrimSpace(p); p != "" {
					out = append(out, n.Items.fromText(p))
				}
			}
			return out
		}
	}
	var v any
	if json.Unmarshal([]byte(text), &v) == nil {
		return v
	}
	return text
}

// scalarFromText reads text as a JSON Schema number, integer or boolean.
func scalarFromText(text, typ string) (any, bool) {
	switch typ {
	case "integer":
		if i, err := strconv.ParseInt(text, 10, 64); err == nil {
			return i, true
		}
	case "number":
		if f, err := strconv.ParseFloat(text, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f, true
		}
	case "boolean":
		if b, err := strconv.ParseBool(text); err == nil {
			return b, true
		}
	}
	return nil, false
}
