package imports

import (
	"bytes"
	"encoding/json"
	"strings"
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

// FuzzParseFiles feeds arbitrary bytes to every client's file parser: each
// either fails with an error naming the file or returns entries that are
// converted or carry a reason.
func FuzzParseFiles(f *testing.F) {
	f.Add([]byte(`{"mcpServers":{"a":{"command":"x"}},"projects":{"/w":{"mcpServers":{"b":{"url":"https://h/sse"}}}}}`))
	f.Add([]byte(`{"mcp":{"servers":{"a":{"type":"http","url":"https://${env:H}/x"}}}}`))
	f.Add([]byte(`{"servers":{"a":{"command":"x","env":{"K":"${input:k}"}}},"inputs":[]}`))
	f.Add([]byte(`{"mcp.servers": null, "mcpServers": [1]}`))
	env := Env{Home: "/h", ConfigDir: "/h/.config", Cwd: "/w"}
	parsers := []func([]byte, string, Env) ([]Entry, error){
		parseClaudeDesktop, parseClaudeCodeUser, parseClaudeCodeProject, parseVSCode, parseCursor,
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, parse := range parsers {
			entries, err := parse(in, "/f.json", env)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "/f.json") {
					t.Fatalf("error does not name the file: %v", err)
				}
				continue
			}
			for _, e := range entries {
				if e.Reason == "" && e.Config.Type == "" {
					t.Fatalf("entry %q converted without a transport from %q", e.Name, in)
				}
				if e.Source != "/f.json" {
					t.Fatalf("entry %q has source %q", e.Name, e.Source)
				}
			}
		}
	})
}
