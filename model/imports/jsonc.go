package imports

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// stripJSONC turns JSON with comments and trailing commas (the format of VS Code
// and Cursor settings files) into plain JSON. Comments and the dropped commas
// become spaces and newlines are kept, so byte offsets, lines and columns in
// error messages still point into the original file. A leading UTF-8 BOM is
// blanked the same way.
func stripJSONC(in []byte) []byte {
	out := bytes.Clone(in)
	if bytes.HasPrefix(out, []byte("\xEF\xBB\xBF")) {
		copy(out, "   ")
	}
	lastComma := -1 // index of a comma that may turn out to be trailing
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case c == '"':
			lastComma = -1
			i = skipString(out, i)
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			i += 2
			for ; i < len(out) && (out[i] != '*' || i+1 >= len(out) || out[i+1] != '/'); i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			if i < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		case c == ',':
			lastComma = i
		case c == '}' || c == ']':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			lastComma = -1
		}
	}
	return out
}

// skipString returns the index of the closing quote of the string starting at i
// (or the last index when it is not closed).
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(b) - 1
}

// decodeFile parses a (possibly JSONC) file into top-level keys, reporting
// syntax and type errors as one sentence with file, line and column.
func decodeFile(data []byte, path string) (map[string]json.RawMessage, error) {
	clean := stripJSONC(data)
	if len(bytes.TrimSpace(clean)) == 0 {
		return map[string]json.RawMessage{}, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(clean, &top); err != nil {
		return nil, locate(path, clean, err)
	}
	if top == nil {
		return nil, fmt.Errorf("%s: the file holds null, not a JSON object", path)
	}
	return top, nil
}

// locate names the line and column of a JSON error.
func locate(path string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	off := int64(-1)
	msg := err.Error()
	switch {
	case errors.As(err, &syn):
		off = syn.Offset - 1 // Offset counts the offending byte
		if off < 0 || off == int64(len(data))-1 {
			off = syn.Offset
		}
		msg = "invalid JSON: " + syn.Error()
	case errors.As(err, &typ):
		off = typ.Offset
		msg = "expected a JSON object"
		if typ.Field != "" {
			msg = fmt.Sprintf("field %s should be %s, not %s", typ.Field, typ.Type, typ.Value)
		}
	}
	if off < 0 || off > int64(len(data)) {
		return fmt.Errorf("%s: %s", path, msg)
	}
	line, col := 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return fmt.Errorf("%s:%d:%d: %s", path, line, col, msg)
}

// member is one key of a JSON object, in file order.
type member struct {
	key string
	val json.RawMessage
}

// orderedMembers returns the members of a JSON object in the order they are
// written (a later duplicate replaces the earlier value in place), so imports
// are reported in the order the person wrote them.
func orderedMembers(raw json.RawMessage) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("expected a JSON object")
	}
	var out []member
	index := map[string]int{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		if i, dup := index[key]; dup {
			out[i].val = val
			continue
		}
		index[key] = len(out)
		out = append(out, member{key, val})
	}
	return out, nil
}
