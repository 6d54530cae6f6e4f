package registry

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// FieldKind says where a Field's value goes.
type FieldKind int

// Kinds of fields.
const (
	FieldEnv        FieldKind = iota + 1 // an environment variable (-e KEY=VALUE)
	FieldHeader                          // an HTTP header (-H 'Key: Value')
	FieldArg                             // a command-line argument (--arg KEY=VALUE)
	FieldVariable                        // a {variable} inside a fixed value or URL (--arg KEY=VALUE)
	FieldUserConfig                      // a setting an MCP bundle's manifest asks for (--arg KEY=VALUE)
	FieldSandbox                         // whether to run it sandboxed (--sandbox, --sandbox=none)
)

// Field is one value the person supplies to install a server: asked for
// at a terminal, or given on the command line.
type Field struct {
	ID    string // unique in its plan: "env:TOKEN", "header:X-Api-Key", "arg:port", "var:region", "user:api_key"
	Kind  FieldKind
	Key   string // its name on the command line
	Input Input
}

// Label names the field for people: "env GITHUB_TOKEN", "header
// Authorization", "argument port", "variable region", "setting api_key".
func (f Field) Label() string {
	switch f.Kind {
	case FieldEnv:
		return "env " + f.Key
	case FieldHeader:
		return "header " + f.Key
	case FieldArg:
		return "argument " + f.Key
	case FieldVariable:
		return "variable " + f.Key
	case FieldUserConfig:
		return "setting " + f.Key
	case FieldSandbox:
		return "sandbox"
	}
	return f.Key
}

// Flag is how the command line gives the field a value.
func (f Field) Flag() string { return f.flagWith("VALUE") }

// flagWith is Flag giving value, quoted for a shell.
func (f Field) flagWith(value string) string {
	switch f.Kind {
	case FieldEnv:
		return "-e " + f.Key + "='" + value + "'"
	case FieldHeader:
		return "-H '" + f.Key + ": " + value + "'"
	case FieldSandbox:
		return "--sandbox=" + value
	case FieldArg, FieldVariable, FieldUserConfig:
	}
	return "--arg " + f.Key + "='" + value + "'"
}

// MissingError lists the required fields that got no value (and have no
// default).
type MissingError struct{ Fields []Field }

func (e *MissingError) Error() string {
	parts := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		parts[i] = fmt.Sprintf("%s (give it with %s)", f.Label(), f.Flag())
	}
	return "the server needs a value for " + strings.Join(parts, ", ")
}

// check validates a value the field got against its choices and format.
// The error quotes the value, unless the field is secret.
func (f Field) check(v string) error {
	shown := strconv.Quote(v)
	if f.Input.IsSecret {
		shown = "the secret value given"
	}
	if len(f.Input.Choices) > 0 && !slices.Contains(f.Input.Choices, v) {
		return fmt.Errorf("%s must be one of %s, not %s", f.Label(), strings.Join(f.Input.Choices, ", "), shown)
	}
	switch f.Input.Format {
	case "number":
		var n float64
		if _, err := fmt.Sscan(v, &n); err != nil || strings.ContainsAny(v, " \t") {
			return fmt.Errorf("%s must be a number, not %s", f.Label(), shown)
		}
		if lo, hi := f.Input.Min, f.Input.Max; (lo != nil && n < *lo) || (hi != nil && n > *hi) {
			if !f.Input.IsSecret {
				shown = v
			}
			return fmt.Errorf("%s must be a number from %s to %s, not %s", f.Label(), bound(lo, "-∞"), bound(hi, "∞"), shown)
		}
	case "boolean":
		if v != "true" && v != "false" {
			return fmt.Errorf("%s must be true or false, not %s", f.Label(), shown)
		}
	}
	if f.Kind == FieldHeader && strings.ContainsAny(v, "\r\n") {
		return fmt.Errorf("%s must be one line", f.Label())
	}
	return nil
}

// bound words a number's limit, or none.
func bound(b *float64, none string) string {
	if b == nil {
		return none
	}
	return strconv.FormatFloat(*b, 'f', -1, 64)
}
