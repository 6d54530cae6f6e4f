package cliargs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
)

// maxStdinArgs bounds JSON arguments read from stdin ("-"): a tool's
// arguments, not a data file.
const maxStdinArgs = 16 << 20

// JSONArg returns the JSON text of args[i]: "{}" when it is absent, stdin
// when it is "-" (so arguments can come from a pipe or a file without shell
// quoting), else the argument itself.
func JSONArg(g *clicore.Globals, args []string, i int) (string, error) {
	if len(args) <= i {
		return "{}", nil
	}
	if args[i] != "-" {
		return args[i], nil
	}
	b, err := io.ReadAll(io.LimitReader(g.Input(), maxStdinArgs+1))
	if err != nil {
		return "", fmt.Errorf("reading the JSON arguments from stdin: %w", err)
	}
	if len(b) > maxStdinArgs {
		return "", clierr.Usagef("the JSON arguments on stdin are larger than %d MB", maxStdinArgs>>20)
	}
	return string(b), nil
}

// JSONSyntaxProblem words a JSON decoding error about the text itself:
// where it broke, or that it ended early.
func JSONSyntaxProblem(err error) error {
	var se *json.SyntaxError
	switch {
	case errors.Is(err, io.EOF):
		return errors.New("nothing was given; want a JSON object such as {}")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the JSON ends too early (a closing } ] or \" is missing)")
	case errors.As(err, &se):
		return fmt.Errorf("invalid JSON at character %d: %s", se.Offset, se.Error())
	}
	return fmt.Errorf("invalid JSON: %w", err)
}

// JSONKindOf names the kind of a decoded JSON value for an error message.
func JSONKindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "true or false"
	}
	return "an object"
}

// DecodeObject parses a JSON object (and nothing after it). Its errors
// are sentences about the text given, never Go's decoding internals.
func DecodeObject(s string, v *map[string]any) error {
	dec := json.NewDecoder(strings.NewReader(s))
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return JSONSyntaxProblem(err)
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		return fmt.Errorf("got %s, want an object such as {\"name\": \"value\"}", JSONKindOf(raw))
	}
	if dec.More() {
		return errors.New("unexpected data after the JSON object")
	}
	*v = obj
	return nil
}

// PromptArgs turns a JSON object into prompt arguments, which MCP defines
// as strings: a string stays as it is, any other value becomes its JSON text.
func PromptArgs(raw map[string]any) map[string]string {
	out := make(map[string]string, len(raw))
	for k, v := range raw {
		if s, ok := v.(string); ok {
			out[k] = s
			continue
		}
		b, _ := json.Marshal(v)
		out[k] = string(b)
	}
	return out
}
