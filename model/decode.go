package model

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// fieldError is a type or value error inside one definition, located by the
// field path ("args[1]", "oauth.callbackPort") and a byte offset in the
// document the node tree was parsed from.
type fieldError struct {
	field  string
	offset int
	msg    string
}

func (e *fieldError) Error() string {
	if e.field == "" {
		return e.msg
	}
	return "field " + e.field + ": " + e.msg
}

// want builds the error for a value of the wrong JSON type.
func want(n *node, field, what string) *fieldError {
	return &fieldError{field, n.start, fmt.Sprintf("must be %s, got %s", what, kindName(n.kind))}
}

// decoder turns node-tree values into Go values, strictly: a wrong type is an
// error (never a silent zero value), null counts as absent.
type decoder struct{ doc []byte }

func (d decoder) str(n *node, field string) (string, *fieldError) {
	switch n.kind {
	case 'z':
		return "", nil
	case 's':
		return n.str, nil
	}
	return "", want(n, field, "a string")
}

func (d decoder) strs(n *node, field string) ([]string, *fieldError) {
	if n.kind == 'z' {
		return nil, nil
	}
	if n.kind != '[' {
		return nil, want(n, field, "an array of strings")
	}
	out := make([]string, 0, len(n.elems))
	for i, e := range n.elems {
		if e.kind != 's' {
			return nil, want(e, fmt.Sprintf("%s[%d]", field, i), "a string")
		}
		out = append(out, e.str)
	}
	return out, nil
}

func (d decoder) strMap(n *node, field string) (map[string]string, *fieldError) {
	if n.kind == 'z' {
		return nil, nil
	}
	if n.kind != '{' {
		return nil, want(n, field, "an object of strings")
	}
	if len(n.dups) > 0 {
		return nil, dupError(n, field)
	}
	out := make(map[string]string, len(n.members))
	for _, m := range n.members {
		if m.val.kind != 's' {
			return nil, want(m.val, field+"."+m.key, "a string")
		}
		out[m.key] = m.val.str
	}
	return out, nil
}

func (d decoder) port(n *node, field string) (int, *fieldError) {
	if n.kind == 'z' {
		return 0, nil
	}
	if n.kind != 'n' {
		return 0, want(n, field, "a port number")
	}
	v, err := strconv.Atoi(string(d.doc[n.start:n.end]))
	if err != nil || v < 0 || v > 65535 {
		return 0, &fieldError{field, n.start, "must be a port number between 0 and 65535"}
	}
	return v, nil
}

// raw returns the bytes of a value as written, for Extra (ConfigHash
// canonicalizes them, so layout never changes a hash).
func (d decoder) raw(n *node) json.RawMessage {
	return append(json.RawMessage(nil), d.doc[n.start:n.end]...)
}

func dupError(n *node, field string) *fieldError {
	d := n.dups[0]
	name := d.key
	if field != "" {
		name = field + "." + d.key
	}
	return &fieldError{name, d.keyStart, fmt.Sprintf("duplicate key %q", d.key)}
}

// joinField prefixes a field path ("oauth" + "clientId").
func joinField(prefix, f string) string {
	if prefix == "" {
		return f
	}
	return prefix + "." + f
}
