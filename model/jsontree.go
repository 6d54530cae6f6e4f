package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// node is one JSON value with its byte range in the document. We build this
// tree (instead of unmarshalling into maps) for three reasons: every error can
// name a line and column, duplicate keys are seen, and a rewrite can splice
// the bytes of one member while leaving the rest of the file exactly as it was.
type node struct {
	kind       byte     // '{' object, '[' array, 's' string, 'n' number, 'b' bool, 'z' null
	start, end int      // byte range of the value in the document
	members    []member // objects, in file order (duplicates excluded)
	dups       []member // objects: later members whose key was already present
	elems      []*node  // arrays
	str        string   // strings: decoded value
}

// member is one key of an object, with the offset of its opening quote.
type member struct {
	key      string
	keyStart int
	val      *node
}

// get returns the value of key in an object node, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != '{' {
		return nil
	}
	for _, m := range n.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// kindName names a node kind for messages ("got number").
func kindName(k byte) string {
	switch k {
	case '{':
		return "object"
	case '[':
		return "array"
	case 's':
		return "string"
	case 'n':
		return "number"
	case 'b':
		return "boolean"
	case 'z':
		return "null"
	}
	return "value"
}

// syntaxError is a JSON syntax problem at a byte offset of the document.
type syntaxError struct {
	msg    string
	offset int
}

func (e *syntaxError) Error() string { return e.msg }

// parseTree parses doc (which must not start with a BOM) into a node tree.
// Duplicate keys are recorded in node.dups, not rejected: the caller decides
// whether a duplicate breaks the file or only one server.
func parseTree(doc []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	p := treeParser{dec: dec, doc: doc}
	root, err := p.value()
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &syntaxError{"unexpected data after the top-level value", skipSep(doc, root.end)}
	}
	return root, nil
}

type treeParser struct {
	dec   *json.Decoder
	doc   []byte
	depth int
}

// maxDepth bounds nesting: the parser recurses per level, and a hostile
// 10 MB file of '[' must be an error, not a stack overflow. Real
// configuration files nest a handful of levels.
const maxDepth = 1000

// skipSep moves past whitespace and the separators ':' and ',' so that the
// offset points at the first byte of the next token.
func skipSep(doc []byte, i int) int {
	for i < len(doc) {
		switch doc[i] {
		case ' ', '\t', '\r', '\n', ':', ',':
			i++
		default:
			return i
		}
	}
	return i
}

// token reads the next token and converts decoder errors to syntaxError.
func (p *treeParser) token() (json.Token, int, error) {
	start := skipSep(p.doc, int(p.dec.InputOffset()))
	t, err := p.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			return nil, start, &syntaxError{se.Error(), int(se.Offset)}
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return nil, len(p.doc), &syntaxError{"unexpected end of file (truncated JSON?)", len(p.doc)}
		default:
			return nil, start, &syntaxError{err.Error(), start}
		}
	}
	return t, start, nil
}

// value parses one JSON value starting at the next token.
func (p *treeParser) value() (*node, error) {
	t, start, err := p.token()
	if err != nil {
		return nil, err
	}
	n := &node{start: start}
	switch v := t.(type) {
	case json.Delim:
		if p.depth++; p.depth > maxDepth {
			return nil, &syntaxError{fmt.Sprintf("nesting deeper than %d levels", maxDepth), start}
		}
		defer func() { p.depth-- }()
		switch v {
		case '{':
			n.kind = '{'
			err = p.object(n)
		case '[':
			n.kind = '['
			err = p.array(n)
		default:
			err = &syntaxError{fmt.Sprintf("unexpected %q", rune(v)), start}
		}
		if err != nil {
			return nil, err
		}
	case string:
		n.kind, n.str = 's', v
	case json.Number:
		n.kind = 'n'
	case bool:
		n.kind = 'b'
	case nil:
		n.kind = 'z'
	}
	n.end = int(p.dec.InputOffset())
	return n, nil
}

func (p *treeParser) object(n *node) error {
	seen := map[string]bool{}
	for p.dec.More() {
		t, keyStart, err := p.token()
		if err != nil {
			return err
		}
		key, ok := t.(string)
		if !ok {
			return &syntaxError{"object key must be a string", keyStart}
		}
		val, err := p.value()
		if err != nil {
			return err
		}
		m := member{key: key, keyStart: keyStart, val: val}
		if seen[key] {
			n.dups = append(n.dups, m)
			continue
		}
		seen[key] = true
		n.members = append(n.members, m)
	}
	_, _, err := p.token() // '}'
	return err
}

func (p *treeParser) array(n *node) error {
	for p.dec.More() {
		v, err := p.value()
		if err != nil {
			return err
		}
		n.elems = append(n.elems, v)
	}
	_, _, err := p.token() // ']'
	return err
}

// lineCol converts a byte offset of doc to a 1-based line and column (in
// runes, so the column matches what an editor shows).
func lineCol(doc []byte, offset int) (line, col int) {
	if offset > len(doc) {
		offset = len(doc)
	}
	line = 1 + bytes.Count(doc[:offset], []byte{'\n'})
	lineStart := bytes.LastIndexByte(doc[:offset], '\n') + 1
	col = 1 + len([]rune(string(doc[lineStart:offset])))
	return line, col
}
