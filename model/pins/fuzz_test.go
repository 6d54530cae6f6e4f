package pins

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzCanonical: whatever a server sends, canonicalizing does not panic;
// what it accepts is valid JSON, means what the input meant, and is its
// own canonical form.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[true,null,"\u0041"]}`, `"x\ud83d\ude00"`, `{"a":{"c":1,"b":2},"a":0}`, `[1e5,-0.5]`, `{}`, `  `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var c canonicalizer
		out, err := c.canonical(nil, src)
		if err != nil || len(out) == 0 {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("%q → invalid %q", src, out)
		}
		var a, b any
		if json.Unmarshal(src, &a) == nil && json.Unmarshal(out, &b) == nil {
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if !bytes.Equal(ja, jb) && !bytes.Contains(src, []byte(`\u`)) {
				t.Fatalf("%q means %s, canonical %q means %s", src, ja, out, jb)
			}
		}
		again, err := c.canonical(nil, out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not stable: %q → %q (%v)", out, again, err)
		}
	})
}

// FuzzDecodeLock: a hostile lock file never panics the decoder.
func FuzzDecodeLock(f *testing.F) {
	f.Add([]byte(`{"lockfileVersion":1,"mcpServers":{"s":{"tools":{"a":"b"},"instructions":"c","serverInfo":{"name":"n"}}}}`))
	f.Add([]byte(`{"mcpServers":{"s":[]},"x":1}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		l, _ := DecodeLock(doc)
		if l != nil {
			_ = l.Encode()
		}
	})
}
