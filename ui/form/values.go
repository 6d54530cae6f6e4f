package form

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// errUnset marks an optional field left empty: it is not sent.
var errUnset = errors.New("unset")

// value converts the edited value; errUnset means "leave out".
func (ff *field) value() (any, error) {
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
		if ff.choice < 0 || ff.choice >= len(ff.opts) {
			return missing()
		}
		return ff.opts[ff.choice].value, nil
	case kindMulti:
		if len(ff.multi) == 0 {
			return missing()
		}
		out := make([]any, 0, len(ff.multi))
		for _, i := range ff.multi {
			out = append(out, ff.opts[i].value)
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
func (f *Schema) Values() (map[string]any, error) {
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
func (f *Schema) Validate(args map[string]any) error {
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
			return fmt.Errorf("the arguments do not match the schema: %s", schemaProblems(ve))
		}
		return fmt.Errorf("the arguments do not match the schema: %w", err)
	}
	return nil
}

// StringValues is Values with every value as a string (prompt arguments).
func (f *Schema) StringValues() (map[string]string, error) {
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

// schemaProblems says what is wrong, field by field ("code: does not match
// pattern '^[A-Z]{3}$'"), instead of the validator's schema URLs and
// keyword paths.
func schemaProblems(ve *jsonschema.ValidationError) string {
	p := message.NewPrinter(language.English)
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		msg := e.ErrorKind.LocalizedString(p)
		if len(e.InstanceLocation) > 0 {
			msg = strings.Join(e.InstanceLocation, ".") + ": " + msg
		}
		out = append(out, msg)
	}
	walk(ve)
	return strings.Join(out, "; ")
}
