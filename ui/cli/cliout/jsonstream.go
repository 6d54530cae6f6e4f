package cliout

import (
	"bytes"
	"encoding"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// encodeJSON writes v as encoding/json's Encoder would (indent "" is one
// line), with a final newline, through textsafe.EscapeJSON, without holding
// the whole output: slices and plain structs are written part by part and
// only their leaves are marshalled, so 10 000 tools of 2.5 KB cost the
// writer one tool at a time, not two whole copies of 25 MB (the encoder's
// buffer and its indented copy).
func encodeJSON(w io.Writer, v any, indent string) error {
	out := &escapedWriter{w: w}
	s := jsonStream{out: out, indent: indent}
	s.value(reflect.ValueOf(v), 0)
	s.raw("\n")
	if s.err != nil {
		return s.err
	}
	return out.flush(true)
}

// jsonStream writes one value; the first error sticks.
type jsonStream struct {
	out    *escapedWriter
	indent string
	err    error
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

func (s *jsonStream) raw(str string) {
	if s.err == nil {
		_, s.err = s.out.Write([]byte(str))
	}
}

// newline starts a line at depth (nothing on one line).
func (s *jsonStream) newline(depth int) {
	if s.indent != "" {
		s.raw("\n" + strings.Repeat(s.indent, depth))
	}
}

func (s *jsonStream) value(v reflect.Value, depth int) {
	if !v.IsValid() {
		s.raw("null")
		return
	}
	t := v.Type()
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType) {
		s.leaf(v, depth)
		return
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			s.raw("null")
			return
		}
		s.value(v.Elem(), depth)
	case reflect.Slice:
		if v.IsNil() || t.Elem().Kind() == reflect.Uint8 {
			s.leaf(v, depth) // null, or base64
			return
		}
		s.slice(v, depth)
	case reflect.Struct:
		if fields, ok := plainFields(t); ok {
			s.object(v, fields, depth)
			return
		}
		s.leaf(v, depth)
	default:
		s.leaf(v, depth)
	}
}

func (s *jsonStream) slice(v reflect.Value, depth int) {
	if v.Len() == 0 {
		s.raw("[]")
		return
	}
	s.raw("[")
	for i := range v.Len() {
		if i > 0 {
			s.raw(",")
		}
		s.newline(depth + 1)
		s.value(v.Index(i), depth+1)
	}
	s.newline(depth)
	s.raw("]")
}

func (s *jsonStream) object(v reflect.Value, fields []plainField, depth int) {
	n := 0
	for _, f := range fields {
		fv := v.Field(f.index)
		if f.omitEmpty && isEmptyJSON(fv) {
			continue
		}
		if n == 0 {
			s.raw("{")
		} else {
			s.raw(",")
		}
		n++
		s.newline(depth + 1)
		s.raw(f.key)
		if s.indent != "" {
			s.raw(" ")
		}
		s.value(fv, depth+1)
	}
	if n == 0 {
		s.raw("{}")
		return
	}
	s.newline(depth)
	s.raw("}")
}

// leaf marshals v whole, indented to sit at depth.
func (s *jsonStream) leaf(v reflect.Value, depth int) {
	if s.err != nil {
		return
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if s.indent != "" {
		enc.SetIndent(strings.Repeat(s.indent, depth), s.indent)
	}
	if s.err = enc.Encode(v.Interface()); s.err == nil {
		_, s.err = s.out.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	}
}

// plainField is a struct field as encoding/json names it: key is the
// encoded name with its quotes and colon.
type plainField struct {
	index     int
	key       string
	omitEmpty bool
}

// plainFields lists t's encoded fields when the struct is plain enough to
// be written field by field exactly as encoding/json would: no embedded
// fields, no tag options but omitempty, and names of letters, digits, "_",
// "-" and "." (encoding/json escapes or refuses others in ways not worth
// copying). Others are marshalled whole.
func plainFields(t reflect.Type) ([]plainField, bool) {
	var out []plainField
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			return nil, false
		}
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if opts != "" && opts != "omitempty" {
			return nil, false
		}
		if name == "" {
			name = f.Name
		}
		if strings.ContainsFunc(name, func(r rune) bool { return !plainKeyRune(r) }) {
			return nil, false
		}
		out = append(out, plainField{index: i, key: `"` + name + `":`, omitEmpty: opts == "omitempty"})
	}
	return out, true
}

// plainKeyRune reports whether r may stand in a key written as it is.
func plainKeyRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.'
}

// isEmptyJSON is encoding/json's test for omitempty.
func isEmptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	default:
		return false
	}
}

// jsonChunk is how much encoded JSON is escaped and written at once.
const jsonChunk = 64 << 10

// escapedWriter collects encoded JSON and writes it through
// textsafe.EscapeJSON about jsonChunk bytes at a time, cut at character
// boundaries.
type escapedWriter struct {
	w   io.Writer
	buf []byte
}

func (e *escapedWriter) Write(p []byte) (int, error) {
	e.buf = append(e.buf, p...)
	if len(e.buf) >= jsonChunk {
		return len(p), e.flush(false)
	}
	return len(p), nil
}

// flush writes what is collected; all, or up to the last whole character.
func (e *escapedWriter) flush(all bool) error {
	n := len(e.buf)
	if !all {
		for n > 0 && !utf8.RuneStart(e.buf[n-1]) {
			n--
		}
		if n > 0 {
			n-- // the rune starting at n-1 may be incomplete
		}
	}
	if n == 0 {
		return nil
	}
	if _, err := e.w.Write(textsafe.EscapeJSON(e.buf[:n])); err != nil {
		return err
	}
	e.buf = append(e.buf[:0], e.buf[n:]...)
	return nil
}

// WriteJSON writes v indented, with a final newline: every --json output
// goes through it. encoding/json leaves U+202E, C1 controls, DEL and tag
// characters raw inside strings, so textsafe.EscapeJSON turns them into \u
// escapes: the value is the same for a program, and inert on a terminal.
func WriteJSON(w io.Writer, v any) error { return encodeJSON(w, v, "  ") }

// WriteJSONLine is WriteJSON on one line, for outputs that print one JSON
// object per line (batch --json).
func WriteJSONLine(w io.Writer, v any) error { return encodeJSON(w, v, "") }
