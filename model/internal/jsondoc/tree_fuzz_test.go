package jsondoc

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParseTreeMatchesEncodingJSON checks the offset-tracking parser against
// encoding/json on arbitrary documents (any top-level value).
func FuzzParseTreeMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[1,"a",{"b":null}]`, `"x"`, `{"a":}`, `tru`, `1 2`, `{"a":1}x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Parse(data)
		if err != nil && strings.Contains(err.Error(), "nesting deeper") {
			return // our own, stricter limit
		}
		if valid := json.Valid(data); valid != (err == nil) {
			t.Fatalf("json.Valid=%v but parseTree err=%v for %q", valid, err, data)
		}
		if err == nil {
			checkRanges(t, data, n)
		}
	})
}

// checkRanges asserts that every node's byte range is exactly one JSON value
// and every member's key offset points at its opening quote: the splicing
// writer depends on both.
func checkRanges(t *testing.T, doc []byte, n *Node) {
	t.Helper()
	if n.Start < 0 || n.End > len(doc) || n.Start >= n.End {
		t.Fatalf("bad range %d..%d", n.Start, n.End)
	}
	v := doc[n.Start:n.End]
	if !json.Valid(v) || strings.TrimSpace(string(v)) != string(v) {
		t.Fatalf("range %d..%d is %q, not exactly one value", n.Start, n.End, v)
	}
	for _, m := range append(append([]Member(nil), n.Members...), n.Dups...) {
		var k string
		end := m.Val.Start
		if doc[m.KeyStart] != '"' || json.Unmarshal([]byte(strings.TrimRight(string(doc[m.KeyStart:end]), " \t\r\n:")), &k) != nil || k != m.Key {
			t.Fatalf("key offset %d does not start key %q", m.KeyStart, m.Key)
		}
		checkRanges(t, doc, m.Val)
	}
	for _, e := range n.Elems {
		checkRanges(t, doc, e)
	}
}
