package jsondoc

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// FieldError is a type or value error inside one definition, located by the
// field path ("args[1]", "oauth.callbackPort") and a byte offset in the
// document the node tree was parsed from.
type FieldError struct {
	Field  string
	Offset int
	Msg    string
}

func (e *FieldError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return "field " + e.Field + ": " + e.Msg
}

// Want builds the error for a value of the wrong JSON type.
func Want(n *Node, field, what string) *FieldError {
	return &FieldError{field, n.Start, fmt.Sprintf("must be %s, got %s", what, KindName(n.Kind))}
}

// Decoder turns node-tree values into Go values, strictly: a wrong type is an
// error (never a silent zero value), null counts as absent.
type Decoder struct{ Doc []byte }

// Str decodes a string; null is "".
func (d Decoder) Str(n *Node, field string) (string, *FieldError) {
	switch n.Kind {
	case 'z':
		return "", nil
	case 's':
		return n.Str, nil
	}
	return "", Want(n, field, "a string")
}

// Strs decodes an array of strings; null is nil.
func (d Decoder) Strs(n *Node, field string) ([]string, *FieldError) {
	if n.Kind == 'z' {
		return nil, nil
	}
	if n.Kind != '[' {
		return nil, Want(n, field, "an array of strings")
	}
	out := make([]string, 0, len(n.Elems))
	for i, e := range n.Elems {
		if e.Kind != 's' {
			return nil, Want(e, fmt.Sprintf("%s[%d]", field, i), "a string")
		}
		out = append(out, e.Str)
	}
	return out, nil
}

// StrMap decodes an object of strings, refusing a duplicate key; null is
// nil.
func (d Decoder) StrMap(n *Node, field string) (map[string]string, *FieldError) {
	if n.Kind == 'z' {
		return nil, nil
	}
	if n.Kind != '{' {
		return nil, Want(n, field, "an object of strings")
	}
	if len(n.Dups) > 0 {
		return nil, DupError(n, field)
	}
	out := make(map[string]string, len(n.Members))
	for _, m := range n.Members {
		if m.Val.Kind != 's' {
			return nil, Want(m.Val, field+"."+m.Key, "a string")
		}
		out[m.Key] = m.Val.Str
	}
	return out, nil
}

// Port decodes a port number (0 to 65535); null is 0.
func (d Decoder) Port(n *Node, field string) (int, *FieldError) {
	if n.Kind == 'z' {
		return 0, nil
	}
	if n.Kind != 'n' {
		return 0, Want(n, field, "a port number")
	}
	v, err := strconv.Atoi(string(d.Doc[n.Start:n.End]))
	if err != nil || v < 0 || v > 65535 {
		return 0, &FieldError{field, n.Start, "must be a port number between 0 and 65535"}
	}
	return v, nil
}

// Raw returns the bytes of a value as written, for Extra (ConfigHash
// canonicalizes them, so layout never changes a hash).
func (d Decoder) Raw(n *Node) json.RawMessage {
	return append(json.RawMessage(nil), d.Doc[n.Start:n.End]...)
}

// DupError is the error for an object's first duplicate key.
func DupError(n *Node, field string) *FieldError {
	d := n.Dups[0]
	name := d.Key
	if field != "" {
		name = field + "." + d.Key
	}
	return &FieldError{name, d.KeyStart, fmt.Sprintf("duplicate key %q", d.Key)}
}

// JoinField prefixes a field path ("oauth" + "clientId").
func JoinField(prefix, f string) string {
	if prefix == "" {
		return f
	}
	return prefix + "." + f
}
