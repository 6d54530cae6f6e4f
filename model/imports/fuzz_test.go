package imports

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// FuzzStripJSONC checks that stripping keeps every offset (same length, same
// newlines) and leaves plain JSON untouched.
func FuzzStripJSONC(f *testing.F) {
	f.Add([]byte(`{"a": [1, 2,], // c` + "\n" + `"b": "/* no */"}`))
	f.Add([]byte("/* unterminated"))
	f.Add([]byte(`"\\"`))
	f.Fuzz(func(t *testing.T, in []byte) {
		out := stripJSONC(in)
		if len(out) != len(in) || bytes.Count(out, []byte("\n")) != bytes.Count(in, []byte("\n")) {
			t.Fatalf("offsets moved: %q → %q", in, out)
		}
		if json.Valid(in) && !bytes.HasPrefix(in, []byte("\xEF\xBB\xBF")) && !bytes.Equal(in, out) {
			t.Fatalf("valid JSON changed: %q → %q", in, out)
		}
	})
}

// FuzzConvertServer checks that any entry either converts to a config with a
// supported transport and the fields it needs, or says why not; never panics.
func FuzzConvertServer(f *testing.F) {
	f.Add([]byte(`{"command":"npx","args":["-y","${env:X}"],"env":{"A":"${input:a}"}}`))
	f.Add([]byte(`{"url":"https://h/sse","headers":{"k":"v"},"auth":{"CLIENT_ID":"c"}}`))
	f.Add([]byte(`{"type":"ws","url":"wss://${HOST}/x"}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, d := range []dialect{{vars: plainVars}, {vars: editorVars("VS Code", "/w", "/h"), cursorAuth: true}} {
			e := convertServer("s", in, d)
			if e.Reason != "" {
				continue
			}
			c := e.Config
			switch c.Type {
			case model.TransportStdio:
				if c.Command == "" {
					t.Fatalf("stdio without command from %q", in)
				}
			case model.TransportSSE, model.TransportHTTP, model.TransportWS:
				if err := CheckURL(c.Type, c.URL); err != nil {
					t.Fatalf("converted a bad url from %q: %v", in, err)
				}
			case model.TransportSDK:
				t.Fatalf("sdk servers are never imported: %q", in)
			default:
				t.Fatalf("type %q from %q", c.Type, in)
			}
		}
	})
}
