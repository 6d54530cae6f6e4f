package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// maxStdinArgs bounds JSON arguments read from stdin ("-"): a tool's
// arguments, not a data file.
const maxStdinArgs = 16 << 20

// jsonArg returns the JSON text of args[i]: "{}" when it is absent, stdin
// when it is "-" (so arguments can come from a pipe or a file without shell
// quoting), else the argument itself.
func jsonArg(g *globalOpts, args []string, i int) (string, error) {
	if len(args) <= i {
		return "{}", nil
	}
	if args[i] != "-" {
		return args[i], nil
	}
	b, err := io.ReadAll(io.LimitReader(g.input(), maxStdinArgs+1))
	if err != nil {
		return "", fmt.Errorf("reading the JSON arguments from stdin: %w", err)
	}
	if len(b) > maxStdinArgs {
		return "", usagef("the JSON arguments on stdin are larger than %d MB", maxStdinArgs>>20)
	}
	return string(b), nil
}

// jsonSyntaxProblem words a JSON decoding error about the text itself:
// where it broke, or that it ended early.
func jsonSyntaxProblem(err error) error {
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

// jsonKindOf names the kind of a decoded JSON value for an error message.
func jsonKindOf(v any) string {
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
