package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/huh"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaNode is the part of a JSON Schema the form generator understands.
type schemaNode struct {
	Type        any             `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Enum        []any           `json:"enum"`
	EnumNames   []string        `json:"enumNames"`
	Default     any             `json:"default"`
	Items       *schemaNode     `json:"items"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	Properties  json.RawMessage `json:"properties"`
	Required    []string        `json:"required"`
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

// formField is one property and the value the person is editing.
type formField struct {
	name     string
	node     *schemaNode
	required bool
	kind     fieldKind
	str      string
	boolv    bool
	choice   int // index into node.Enum, or -1 for "not set"
	multi    []int
}

// schemaForm turns a JSON Schema (tool input or elicitation request) into
// huh fields, and the edited values back into arguments.
type schemaForm struct {
	schema json.RawMessage
	fields []*formField
}

// errNotObject is returned for a schema whose root is not an object.
var errNotObject = errors.New("the schema is not an object with properties")

// newSchemaForm parses schema; an empty schema gives a form without fields.
func newSchemaForm(schema json.RawMessage) (*schemaForm, error) {
	f := &schemaForm{schema: schema}
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
		ff := &formField{name: name, node: n, required: req[name], choice: -1}
		ff.kind, ff.str, ff.boolv, ff.choice, ff.multi = classify(n)
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

// classify picks the editor for a property and its initial value (defaults filled).
func classify(n *schemaNode) (kind fieldKind, str string, b bool, choice int, multi []int) {
	choice = -1
	t := n.typ()
	switch {
	case len(n.Enum) > 0:
		for i, v := range n.Enum {
			if n.Default != nil && fmt.Sprint(v) == fmt.Sprint(n.Default) {
				choice = i
			}
		}
		return kindEnum, "", false, choice, nil
	case t == "string":
		if s, ok := n.Default.(string); ok {
			str = s
		}
		return kindString, str, false, choice, nil
	case t == "number" || t == "integer":
		if n.Default != nil {
			str = fmt.Sprint(n.Default)
		}
		if t == "integer" {
			return kindInteger, str, false, choice, nil
		}
		return kindNumber, str, false, choice, nil
	case t == "boolean":
		d, ok := n.Default.(bool)
		if ok {
			choice = 0
			if d {
				choice = 1
			}
		}
		return kindBool, "", d, choice, nil
	case t == "array" && n.Items != nil && len(n.Items.Enum) > 0:
		if arr, ok := n.Default.([]any); ok {
			for _, d := range arr {
				for i, v := range n.Items.Enum {
					if fmt.Sprint(v) == fmt.Sprint(d) {
						multi = append(multi, i)
					}
				}
			}
		}
		return kindMulti, "", false, choice, multi
	case t == "array" && n.Items != nil && isScalar(n.Items.typ()):
		if arr, ok := n.Default.([]any); ok {
			parts := make([]string, len(arr))
			for i, v := range arr {
				parts[i] = fmt.Sprint(v)
			}
			str = strings.Join(parts, ", ")
		}
		return kindList, str, false, choice, nil
	}
	if n.Default != nil {
		if b, err := json.MarshalIndent(n.Default, "", "  "); err == nil {
			str = string(b)
		}
	}
	return kindJSON, str, false, choice, nil
}

// Fields returns the huh fields editing f's values, bound by pointer.
func (f *schemaForm) Fields() []huh.Field {
	out := make([]huh.Field, 0, len(f.fields))
	for _, ff := range f.fields {
		out = append(out, ff.huhField())
	}
	return out
}

func (ff *formField) title() string {
	t := ff.name
	if ff.node.Title != "" && ff.node.Title != ff.name {
		t = ff.node.Title + " (" + ff.name + ")"
	}
	if ff.required {
		t += " *"
	}
	return t
}

func (ff *formField) huhField() huh.Field {
	desc := firstLine(ff.node.Description)
	switch ff.kind {
	case kindBool, kindEnum:
		opts := ff.options()
		return huh.NewSelect[int]().Key(ff.name).Title(ff.title()).Description(desc).Options(opts...).Value(&ff.choice).Inline(true).
			Validate(func(v int) error {
				if v < 0 && ff.required {
					return errors.New("choose a value")
				}
				return nil
			})
	case kindMulti:
		var opts []huh.Option[int]
		for i, v := range ff.node.Items.Enum {
			opts = append(opts, huh.NewOption(fmt.Sprint(v), i))
		}
		return huh.NewMultiSelect[int]().Key(ff.name).Title(ff.title()).Description(desc).Options(opts...).Value(&ff.multi).
			Validate(func(v []int) error {
				if len(v) == 0 && ff.required {
					return errors.New("choose at least one value")
				}
				return nil
			})
	case kindJSON:
		return huh.NewText().Key(ff.name).Title(ff.title() + " (JSON)").Description(desc).Lines(3).Value(&ff.str).
			Validate(ff.check)
	case kindString, kindNumber, kindInteger, kindList:
	}
	in := huh.NewInput().Key(ff.name).Title(ff.title()).Description(desc).Value(&ff.str).
		Validate(ff.check)
	if ff.kind == kindList {
		in = in.Placeholder("comma-separated " + ff.node.Items.typ() + "s")
	}
	return in
}

// check is the per-field validator: an unset optional field is fine.
func (ff *formField) check(string) error {
	if _, err := ff.value(); err != nil && !errors.Is(err, errUnset) {
		return fmt.Errorf("%s: %w", ff.name, err)
	}
	return nil
}

// options are the choices of a select: the enum (or true/false), plus
// "(not set)" for an optional field.
func (ff *formField) options() []huh.Option[int] {
	var opts []huh.Option[int]
	if !ff.required {
		opts = append(opts, huh.NewOption("(not set)", -1))
	}
	if ff.kind == kindBool {
		return append(opts, huh.NewOption("false", 0), huh.NewOption("true", 1))
	}
	for i, v := range ff.node.Enum {
		label := fmt.Sprint(v)
		if i < len(ff.node.EnumNames) && ff.node.EnumNames[i] != "" {
			label = ff.node.EnumNames[i] + " (" + label + ")"
		}
		opts = append(opts, huh.NewOption(label, i))
	}
	return opts
}

// errUnset marks an optional field left empty: it is not sent.
var errUnset = errors.New("unset")

// value converts the edited value; errUnset means "leave out".
func (ff *formField) value() (any, error) {
	s := strings.TrimSpace(ff.str)
	missing := func() (any, error) {
		if ff.required {
			return nil, errors.New("required")
		}
		return nil, errUnset
	}
	switch ff.kind {
	case kindString:
		if ff.str == "" {
			return missing()
		}
		return ff.str, nil
	case kindNumber, kindInteger:
		if s == "" {
			return missing()
		}
		return parseNumber(s, ff.kind == kindInteger, ff.node)
	case kindBool:
		if ff.choice < 0 {
			return missing()
		}
		return ff.choice == 1, nil
	case kindEnum:
		if ff.choice < 0 || ff.choice >= len(ff.node.Enum) {
			return missing()
		}
		return ff.node.Enum[ff.choice], nil
	case kindMulti:
		if len(ff.multi) == 0 {
			return missing()
		}
		out := make([]any, 0, len(ff.multi))
		for _, i := range ff.multi {
			out = append(out, ff.node.Items.Enum[i])
		}
		return out, nil
	case kindList:
		if s == "" {
			return missing()
		}
		var out []any
		it := ff.node.Items.typ()
		for _, p := range strings.Split(s, ",") {
			p = strings.TrimSpace(p)
			if p == "" {
				continue
			}
			v, err := parseScalar(p, it, ff.node.Items)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", p, err)
			}
			out = append(out, v)
		}
		return out, nil
	case kindJSON:
		if s == "" {
			return missing()
		}
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return nil, fmt.Errorf("not valid JSON: %w", err)
		}
		return v, nil
	}
	return nil, errUnset
}

func parseScalar(s, typ string, n *schemaNode) (any, error) {
	switch typ {
	case "number":
		return parseNumber(s, false, n)
	case "integer":
		return parseNumber(s, true, n)
	case "boolean":
		b, err := strconv.ParseBool(s)
		if err != nil {
			return nil, errors.New("not true or false")
		}
		return b, nil
	}
	return s, nil
}

func parseNumber(s string, integer bool, n *schemaNode) (any, error) {
	var v float64
	var out any
	if integer {
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, errors.New("not a whole number")
		}
		v, out = float64(i), i
	} else {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, errors.New("not a number")
		}
		v, out = f, f
	}
	if n.Minimum != nil && v < *n.Minimum {
		return nil, fmt.Errorf("must be at least %v", *n.Minimum)
	}
	if n.Maximum != nil && v > *n.Maximum {
		return nil, fmt.Errorf("must be at most %v", *n.Maximum)
	}
	return out, nil
}

// Values returns the arguments, leaving out unset optional fields.
func (f *schemaForm) Values() (map[string]any, error) {
	args := map[string]any{}
	var errs []string
	for _, ff := range f.fields {
		v, err := ff.value()
		switch {
		case errors.Is(err, errUnset):
		case err != nil:
			errs = append(errs, ff.name+": "+err.Error())
		default:
			args[ff.name] = v
		}
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return nil, errors.New(strings.Join(errs, "; "))
	}
	return args, nil
}

// Validate checks args against the whole schema (what the per-field checks
// cannot see: patterns, lengths, nested objects). A schema that does not
// compile is left to the server to judge.
func (f *schemaForm) Validate(args map[string]any) error {
	if len(bytes.TrimSpace(f.schema)) == 0 {
		return nil
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(f.schema))
	if err != nil {
		return nil //nolint:nilerr // unreadable schema: the server validates
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mcpdeck:input.json", doc); err != nil {
		return nil //nolint:nilerr // see above
	}
	sch, err := c.Compile("mcpdeck:input.json")
	if err != nil {
		return nil //nolint:nilerr // see above
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return fmt.Errorf("encoding the arguments: %w", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("encoding the arguments: %w", err)
	}
	if err := sch.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return fmt.Errorf("the arguments do not match the schema: %s", strings.ReplaceAll(ve.Error(), "\n", " "))
		}
		return fmt.Errorf("the arguments do not match the schema: %w", err)
	}
	return nil
}

// StringValues is Values with every value as a string (prompt arguments).
func (f *schemaForm) StringValues() (map[string]string, error) {
	args, err := f.Values()
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(args))
	for k, v := range args {
		out[k] = fmt.Sprint(v)
	}
	return out, nil
}
