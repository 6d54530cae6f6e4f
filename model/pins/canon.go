package pins

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"unicode/utf8"
)

// errNotJSON says a value is not one JSON value.
var errNotJSON = errors.New("not a JSON value")

// maxDepth bounds how deeply canonical JSON nests, so a hostile schema
// cannot exhaust the stack.
const maxDepth = 200

// canonicalizer writes JSON values in one canonical form: object members
// sorted by key, no insignificant whitespace, strings with the fewest
// escapes; numbers keep their text. Its buffers are reused across values
// (a listing of 300 tools allocates them once). The output travels
// through the calls as a value, not a field, so appending to it costs no
// write barrier.
type canonicalizer struct {
	spans []span // the members of the objects being written, a stack
	tmp   []byte // reordering room
	order []span // reordering room
}

// span is one object member written to out: its key's content, and the
// whole member from the key's opening quote to the end of its value.
type span struct{ keyFrom, keyTo, from, to int }

// canonical appends the canonical form of the JSON value src to dst.
// An empty or blank src appends nothing.
func (c *canonicalizer) canonical(dst, src []byte) ([]byte, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return dst, nil
	}
	out, i, err := c.value(dst, src, skipWS(src, 0), 0)
	if err == nil && skipWS(src, i) != len(src) {
		err = errNotJSON
	}
	if err != nil {
		return dst, err
	}
	return out, nil
}

func skipWS(s []byte, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// value writes the value at s[i:] and returns where it ends.
func (c *canonicalizer) value(out, s []byte, i, depth int) ([]byte, int, error) {
	if i >= len(s) || depth > maxDepth {
		return out, 0, errNotJSON
	}
	switch b := s[i]; {
	case b == '{':
		return c.object(out, s, i+1, depth)
	case b == '[':
		return c.array(out, s, i+1, depth)
	case b == '"':
		return str(out, s, i)
	case b == 't':
		return word(out, s, i, "true")
	case b == 'f':
		return word(out, s, i, "false")
	case b == 'n':
		return word(out, s, i, "null")
	case b == '-' || b >= '0' && b <= '9':
		return number(out, s, i)
	}
	return out, 0, errNotJSON
}

func word(out, s []byte, i int, w string) ([]byte, int, error) {
	if !bytes.HasPrefix(s[i:], []byte(w)) {
		return out, 0, errNotJSON
	}
	return append(out, w...), i + len(w), nil
}

// number copies a number's text after checking its grammar (-, digits
// without a leading zero, a fraction, an exponent): its spelling is part
// of what was sent.
func number(out, s []byte, i int) ([]byte, int, error) {
	j := i
	digits := func() bool {
		k := j
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		return j > k
	}
	if j < len(s) && s[j] == '-' {
		j++
	}
	if j < len(s) && s[j] == '0' {
		j++
	} else if !digits() {
		return out, 0, errNotJSON
	}
	if j < len(s) && s[j] == '.' {
		j++
		if !digits() {
			return out, 0, errNotJSON
		}
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		j++
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if !digits() {
			return out, 0, errNotJSON
		}
	}
	return append(out, s[i:j]...), j, nil
}

// str writes the string at s[i:] (its opening quote); one without escapes
// or control characters is copied as it is.
func str(out, s []byte, i int) ([]byte, int, error) {
	end := bytes.IndexByte(s[i+1:], '"')
	if end < 0 {
		return out, 0, errNotJSON
	}
	j := i + 1 + end
	body := s[i+1 : j]
	if bytes.IndexByte(body, '\\') < 0 {
		plain, high := true, false
		for _, b := range body {
			plain = plain && b >= 0x20
			high = high || b >= 0x80
		}
		if plain && (!high || utf8.Valid(body)) {
			return append(out, s[i:j+1]...), j + 1, nil
		}
	}
	// escapes, or characters JSON does not allow raw: decode, write anew
	for j = i + 1; j < len(s) && s[j] != '"'; j++ {
		if s[j] == '\\' {
			j++
		}
	}
	if j >= len(s) {
		return out, 0, errNotJSON
	}
	var v string
	if err := json.Unmarshal(s[i:j+1], &v); err != nil {
		return out, 0, errNotJSON
	}
	return appendString(out, v), j + 1, nil
}

func (c *canonicalizer) array(out, s []byte, i, depth int) ([]byte, int, error) {
	out = append(out, '[')
	i = skipWS(s, i)
	if i < len(s) && s[i] == ']' {
		return append(out, ']'), i + 1, nil
	}
	for {
		var err error
		if out, i, err = c.value(out, s, skipWS(s, i), depth+1); err != nil {
			return out, 0, err
		}
		i = skipWS(s, i)
		if i >= len(s) {
			return out, 0, errNotJSON
		}
		if s[i] == ']' {
			return append(out, ']'), i + 1, nil
		}
		if s[i] != ',' {
			return out, 0, errNotJSON
		}
		out = append(out, ',')
		i++
	}
}

func (c *canonicalizer) object(out, s []byte, i, depth int) ([]byte, int, error) {
	out = append(out, '{')
	base := len(c.spans)
	defer func() { c.spans = c.spans[:base] }()
	i = skipWS(s, i)
	if i < len(s) && s[i] == '}' {
		return append(out, '}'), i + 1, nil
	}
	for {
		i = skipWS(s, i)
		if i >= len(s) || s[i] != '"' {
			return out, 0, errNotJSON
		}
		if len(c.spans) > base {
			out = append(out, ',')
		}
		sp := span{from: len(out), keyFrom: len(out) + 1}
		var err error
		if out, i, err = str(out, s, i); err != nil {
			return out, 0, err
		}
		sp.keyTo = len(out) - 1
		i = skipWS(s, i)
		if i >= len(s) || s[i] != ':' {
			return out, 0, errNotJSON
		}
		out = append(out, ':')
		if out, i, err = c.value(out, s, skipWS(s, i+1), depth+1); err != nil {
			return out, 0, err
		}
		sp.to = len(out)
		c.spans = append(c.spans, sp)
		i = skipWS(s, i)
		if i >= len(s) {
			return out, 0, errNotJSON
		}
		if s[i] == '}' {
			c.sortMembers(out, c.spans[base:])
			return append(out, '}'), i + 1, nil
		}
		if s[i] != ',' {
			return out, 0, errNotJSON
		}
		i++
	}
}

// sortMembers rewrites the members of one object in out, written in the
// order they came, sorted by key (byte order of the canonical key; equal
// keys keep their order).
func (c *canonicalizer) sortMembers(out []byte, ms []span) {
	cmp := func(a, b span) int { return bytes.Compare(out[a.keyFrom:a.keyTo], out[b.keyFrom:b.keyTo]) }
	if slices.IsSortedFunc(ms, cmp) {
		return
	}
	from, to := ms[0].from, ms[len(ms)-1].to
	c.tmp = append(c.tmp[:0], out[from:to]...)
	c.order = append(c.order[:0], ms...)
	sorted := c.order
	slices.SortStableFunc(sorted, cmp)
	w := from
	for k, m := range sorted {
		if k > 0 {
			out[w] = ','
			w++
		}
		w += copy(out[w:], c.tmp[m.from-from:m.to-from])
	}
}

// appendString appends v as a JSON string with only the escapes JSON
// requires (quote, backslash, controls); invalid UTF-8 becomes U+FFFD.
func appendString(dst []byte, v string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(v); {
		r, size := utf8.DecodeRuneInString(v[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, "\ufffd"...)
		case r == '"' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xF])
		default:
			dst = append(dst, v[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}
