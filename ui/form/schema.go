package form

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/huh"
)

// schemaNode is the part of a JSON Schema the form generator understands.
type schemaNode struct {
	Type        any             `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Enum        []any           `json:"enum"`
	EnumNames   []string        `json:"enumNames"`
	Default     any             `json:"default"`
	Format      string          `json:"format"` // "password": typed hidden
	Items       *schemaNode     `json:"items"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	Properties  json.RawMessage `json:"properties"`
	Required    []string        `json:"required"`
	// OneOf and AnyOf are read for titled enums only (enum.go).
	OneOf []json.RawMessage `json:"oneOf"`
	AnyOf []json.RawMessage `json:"anyOf"`
}

// typ returns the schema's type, ignoring "null" in a type list.
func (n *schemaNode) typ() string {
	switch t := n.Type.(type) {
	case string:
		return t
	case []any:
		for _, v := range t {
			if s, ok := v.(string); ok && s != "null" {
				return s
			}
		}
	}
	return ""
}

func isScalar(t string) bool {
	return t == "string" || t == "number" || t == "integer" || t == "boolean"
}

// fieldKind is how one property is edited.
type fieldKind int

const (
	kindString fieldKind = iota
	kindNumber
	kindInteger
	kindBool
	kindEnum
	kindMulti // array of enum values
	kindList  // array of scalars, comma separated
	kindJSON  // anything else: raw JSON
)

// field is one property and the value the person is editing.
type field struct {
	name     string
	node     *schemaNode
	required bool
	kind     fieldKind
	str      string
	boolv    bool
	choice   int // index into opts, or -1 for "not set"
	multi    []int
	opts     []enumOption // the choices of an enum field, or of a multiple one's items
	input    *huh.Input   // the text field, when it is one: completions go there
}

// Schema is a JSON Schema (a tool's input, an elicitation request, a
// registry server's fields) turned into huh fields, and the edited values
// back into arguments.
type Schema struct {
	schema json.RawMessage
	fields []*field
}

// errNotObject is returned for a schema whose root is not an object.
var errNotObject = errors.New("the schema is not an object with properties")

// Parse reads schema; an empty schema gives a form without fields.
func Parse(schema json.RawMessage) (*Schema, error) {
	f := &Schema{schema: schema}
	if len(bytes.TrimSpace(schema)) == 0 {
		return f, nil
	}
	var root schemaNode
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, fmt.Errorf("reading the input schema: %w", err)
	}
	if t := root.typ(); t != "" && t != "object" {
		return nil, errNotObject
	}
	names, props, err := orderedProperties(root.Properties)
	if err != nil {
		return nil, fmt.Errorf("reading the schema's properties: %w", err)
	}
	req := map[string]bool{}
	for _, r := range root.Required {
		req[r] = true
	}
	for _, name := range names {
		n := props[name]
		ff := &field{name: name, node: n, required: req[name], choice: -1}
		ff.classify()
		f.fields = append(f.fields, ff)
	}
	return f, nil
}

// orderedProperties decodes a properties object keeping the author's order.
func orderedProperties(raw json.RawMessage) ([]string, map[string]*schemaNode, error) {
	props := map[string]*schemaNode{}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, props, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var names []string
	if _, err := dec.Token(); err != nil { // {
		return nil, nil, err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		name, _ := tok.(string)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, nil, err
		}
		if _, dup := props[name]; dup {
			continue
		}
		n := &schemaNode{}
		if err := json.Unmarshal(m[name], n); err != nil {
			n = &schemaNode{} // a property we cannot read is edited as raw JSON
		}
		props[name] = n
		names = append(names, name)
	}
	return names, props, nil
}

// classify picks the editor for the field's property and its initial
// value (defaults filled).
func (ff *field) classify() {
	n := ff.node
	t := n.typ()
	if ff.opts = n.enumOptions(); len(ff.opts) > 0 {
		ff.kind, ff.choice = kindEnum, optionIndex(ff.opts, n.Default)
		return
	}
	switch {
	case t == "string":
		ff.kind = kindString
		ff.str, _ = n.Default.(string)
	case t == "number" || t == "integer":
		ff.kind = kindNumber
		if t == "integer" {
			ff.kind = kindInteger
		}
		if n.Default != nil {
			ff.str = fmt.Sprint(n.Default)
		}
	case t == "boolean":
		ff.kind = kindBool
		ff.boolv, ff.choice = boolDefault(n.Default)
	case t == "array" && n.Items != nil && len(n.Items.enumOptions()) > 0:
		ff.kind, ff.opts = kindMulti, n.Items.enumOptions()
		arr, _ := n.Default.([]any)
		for _, d := range arr {
			if i := optionIndex(ff.opts, d); i >= 0 {
				ff.multi = append(ff.multi, i)
			}
		}
	case t == "array" && n.Items != nil && isScalar(n.Items.typ()):
		ff.kind, ff.str = kindList, listDefault(n.Default)
	default:
		ff.kind = kindJSON
		if n.Default != nil {
			if b, err := json.MarshalIndent(n.Default, "", "  "); err == nil {
				ff.str = string(b)
			}
		}
	}
}

// boolDefault is a boolean default and its choice (0 false, 1 true, -1 no
// default).
func boolDefault(v any) (bool, int) {
	d, ok := v.(bool)
	switch {
	case !ok:
		return false, -1
	case d:
		return true, 1
	}
	return false, 0
}

// listDefault is an array default as the list field shows it: "a, b".
func listDefault(v any) string {
	arr, ok := v.([]any)
	if !ok {
		return ""
	}
	parts := make([]string, len(arr))
	for i, e := range arr {
		parts[i] = fmt.Sprint(e)
	}
	return strings.Join(parts, ", ")
}

// SkipSchemaCheck leaves the arguments to the server to judge: Validate
// no longer checks them against the whole schema (a form made up for a
// schema that could not be read).
func (f *Schema) SkipSchemaCheck() { f.schema = nil }

// ObjectSchema builds an object schema whose properties keep the given
// order (a Go map would lose it), for forms made from prompt arguments,
// URI template variables and a registry server's fields.
func ObjectSchema(order []string, props map[string]any, req []string) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i, n := range order {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(n)
		v, _ := json.Marshal(props[n])
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteString(`}`)
	if len(req) > 0 {
		r, _ := json.Marshal(req)
		b.WriteString(`,"required":`)
		b.Write(r)
	}
	b.WriteString(`}`)
	return json.RawMessage(b.String())
}
