// Package schema checks a tool call's arguments against the tool's JSON
// Schema before the call is sent: compiled once per tool (New), with a fast
// path for the simple object schemas most tools declare, optional nulls
// dropped (OmitNulls), and errors that name each offending field. A
// server's schema never makes mcpdeck fetch a URL or read a file.
package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// ErrInvalidArguments is returned when tool arguments do not match the tool's
// input schema; the message names the field.
var ErrInvalidArguments = errors.New("invalid arguments")

// compile compiles a tool's input schema. An empty schema accepts
// anything (nil, nil). External $refs are not fetched (see noLoader).
func compile(raw json.RawMessage) (*jsonschema.Schema, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(raw) == "null" {
		return nil, nil
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("tool input schema is not valid JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	const loc = "mcpdeck:///input-schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, fmt.Errorf("tool input schema: %w", err)
	}
	sch, err := c.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("tool input schema cannot be used: %w", err)
	}
	return sch, nil
}

// noLoader never dereferences an external reference: a server's schema must
// not make us fetch URLs or read files. The referenced schema stands in as
// `true` (accepts anything), so the rest of the schema is still checked and
// the tool can be called; the server validates its own reference.
type noLoader struct{}

func (noLoader) Load(string) (any, error) { return true, nil }

// validate checks args against sch and returns an ErrInvalidArguments
// error naming each offending field.
func validate(sch *jsonschema.Schema, tool string, args map[string]any) error {
	if sch == nil {
		return nil
	}
	if args == nil {
		args = map[string]any{}
	}
	var inst any = args
	if !jsonNative(args) {
		// Round-trip through JSON so Go values (structs, typed slices) look
		// like what the server will receive.
		raw, err := json.Marshal(args)
		if err != nil {
			return fmt.Errorf("%w for tool %s: %w", ErrInvalidArguments, tool, err)
		}
		if inst, err = jsonschema.UnmarshalJSON(bytes.NewReader(raw)); err != nil {
			return fmt.Errorf("%w for tool %s: %w", ErrInvalidArguments, tool, err)
		}
	}
	err := sch.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return fmt.Errorf("%w for tool %s: %w", ErrInvalidArguments, tool, err)
	}
	p := message.NewPrinter(language.English)
	var msgs []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			field := strings.Join(e.InstanceLocation, ".")
			msg := e.ErrorKind.LocalizedString(p)
			if field == "" {
				msgs = append(msgs, msg)
			} else {
				msgs = append(msgs, fmt.Sprintf("field %q: %s", field, msg))
			}
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	if len(msgs) > 5 {
		msgs = append(msgs[:5], fmt.Sprintf("and %d more", len(msgs)-5))
	}
	return fmt.Errorf("%w for tool %s: %s", ErrInvalidArguments, tool, strings.Join(msgs, "; "))
}

// jsonNative reports whether v is made only of the types the validator
// understands directly (what encoding/json produces, plus Go integers), so
// the usual case needs no JSON round trip.
func jsonNative(v any) bool {
	switch v := v.(type) {
	case nil, bool, string, float64, json.Number, int, int64, int32:
		return true
	case []any:
		for _, x := range v {
			if !jsonNative(x) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, x := range v {
			if !jsonNative(x) {
				return false
			}
		}
		return true
	}
	return false
}
