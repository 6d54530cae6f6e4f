package jsondoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Node is one JSON value with its byte range in the document. We build this
// tree (instead of unmarshalling into maps) for three reasons: every error can
// name a line and column, duplicate keys are seen, and a rewrite can splice
// the bytes of one member while leaving the rest of the file exactly as it was.
type Node struct {
	Kind       byte     // '{' object, '[' array, 's' string, 'n' number, 'b' bool, 'z' null
	Start, End int      // byte range of the value in the document
	Members    []Member // objects, in file order (duplicates excluded)
	Dups       []Member // objects: later members whose key was already present
	Elems      []*Node  // arrays
	Str        string   // strings: decoded value
}

// Member is one key of an object, with the offset of its opening quote.
type Member struct {
	Key      string
	KeyStart int
	Val      *Node
}

// Get returns the value of key in an object node, or nil.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != '{' {
		return nil
	}
	for _, m := range n.Members {
		if m.Key == key {
			return m.Val
		}
	}
	return nil
}

// KindName names a node kind for messages ("got number").
func KindName(k byte) string {
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

// SyntaxError is a JSON syntax problem at a byte offset of the document.
type SyntaxError struct {
	Msg    string
	Offset int
}

func (e *SyntaxError) Error() string { return e.Msg }

// Parse parses doc (which must not start with a BOM) into a node tree.
// Duplicate keys are recorded in node.dups, not rejected: the caller decides
// whether a duplicate breaks the file or only one server.
func Parse(doc []byte) (*Node, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	p := treeParser{dec: dec, doc: doc}
	root, err := p.value()
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &SyntaxError{"unexpected data after the top-level value", skipSep(doc, root.End)}
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

// token reads the next token and converts decoder errors to SyntaxError.
func (p *treeParser) token() (json.Token, int, error) {
	start := skipSep(p.doc, int(p.dec.InputOffset()))
	t, err := p.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			return nil, start, &SyntaxError{se.Error(), int(se.Offset)}
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return nil, len(p.doc), &SyntaxError{"unexpected end of file (truncated JSON?)", len(p.doc)}
		default:
			return nil, start, &SyntaxError{err.Error(), start}
		}
	}
	return t, start, nil
}

// value parses one JSON value starting at the next token.
func (p *treeParser) value() (*Node, error) {
	t, start, err := p.token()
	if err != nil {
		return nil, err
	}
	n := &Node{Start: start}
	switch v := t.(type) {
	case json.Delim:
		if p.depth++; p.depth > maxDepth {
			return nil, &SyntaxError{fmt.Sprintf("nesting deeper than %d levels", maxDepth), start}
		}
		defer func() { p.depth-- }()
		switch v {
		case '{':
			n.Kind = '{'
			err = p.object(n)
		case '[':
			n.Kind = '['
			err = p.array(n)
		default:
			err = &SyntaxError{fmt.Sprintf("unexpected %q", rune(v)), start}
		}
		if err != nil {
			return nil, err
		}
	case string:
		n.Kind, n.Str = 's', v
	case json.Number:
		n.Kind = 'n'
	case bool:
		n.Kind = 'b'
	case nil:
		n.Kind = 'z'
	}
	n.End = int(p.dec.InputOffset())
	return n, nil
}

func (p *treeParser) object(n *Node) error {
	seen := map[string]bool{}
	for p.dec.More() {
		t, keyStart, err := p.token()
		if err != nil {
			return err
		}
		key, ok := t.(string)
		if !ok {
			return &SyntaxError{"object key must be a string", keyStart}
		}
		val, err := p.value()
		if err != nil {
			return err
		}
		m := Member{Key: key, KeyStart: keyStart, Val: val}
		if seen[key] {
			n.Dups = append(n.Dups, m)
			continue
		}
		seen[key] = true
		n.Members = append(n.Members, m)
	}
	_, _, err := p.token() // '}'
	return err
}

func (p *treeParser) array(n *Node) error {
	for p.dec.More() {
		v, err := p.value()
		if err != nil {
			return err
		}
		n.Elems = append(n.Elems, v)
	}
	_, _, err := p.token() // ']'
	return err
}

// LineCol converts a byte offset of doc to a 1-based line and column (in
// runes, so the column matches what an editor shows).
func LineCol(doc []byte, offset int) (line, col int) {
	if offset > len(doc) {
		offset = len(doc)
	}
	line = 1 + bytes.Count(doc[:offset], []byte{'\n'})
	lineStart := bytes.LastIndexByte(doc[:offset], '\n') + 1
	col = 1 + len([]rune(string(doc[lineStart:offset])))
	return line, col
}

// Keys returns the member names of an object node, in file order.
func (n *Node) Keys() []string {
	if n == nil || n.Kind != '{' {
		return nil
	}
	out := make([]string, len(n.Members))
	for i, m := range n.Members {
		out[i] = m.Key
	}
	return out
}
