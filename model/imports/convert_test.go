package imports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

func TestConvertServer(t *testing.T) {
	t.Parallel()
	d := dialect{vars: plainVars}
	tests := []struct {
		name, json string
		reason     string // substring; "" = converted
		typ        model.Transport
	}{
		{"stdio-implicit", `{"command":"x"}`, "", model.TransportStdio},
		{"ws-by-url", `{"url":"wss://h/mcp"}`, "", model.TransportWS},
		{"sse-by-url", `{"url":"https://h/v1/sse?x=1"}`, "", model.TransportSSE},
		{"streamable", `{"type":"streamable-http","url":"https://h/mcp"}`, "", model.TransportHTTP},
		{"var-host", `{"type":"http","url":"https://${HOST}/mcp"}`, "", model.TransportHTTP},
		{"env-number", `{"command":"x","env":{"PORT":8080,"DEBUG":true}}`, "", model.TransportStdio},
		{"not-object", `[1]`, "not a JSON object", ""},
		{"args-wrong-type", `{"command":"x","args":"-y"}`, "field args: expected an array of strings", ""},
		{"env-object-value", `{"command":"x","env":{"A":{}}}`, "field env: A: expected a string", ""},
		{"stdio-no-command", `{"type":"stdio"}`, "without a command", ""},
		{"http-no-url", `{"type":"http"}`, "without a url", ""},
		{"ws-wrong-scheme", `{"type":"ws","url":"https://h"}`, "ws:// or wss://", ""},
		{"http-ws-scheme", `{"type":"http","url":"ws://h"}`, "http:// or https://", ""},
		{"bad-scheme", `{"url":"ftp://h/x"}`, "scheme must be", ""},
		{"relative-url", `{"url":"/mcp"}`, "absolute URL", ""},
		{"unknown-type", `{"type":"carrier-pigeon","command":"x"}`, `"carrier-pigeon"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := convertServer(tt.name, []byte(tt.json), d)
			if tt.reason == "" {
				if e.Reason != "" || e.Config.Type != tt.typ {
					t.Fatalf("got %+v, want type %s", e, tt.typ)
				}
				return
			}
			if !strings.Contains(e.Reason, tt.reason) {
				t.Fatalf("reason = %q, want it to contain %q", e.Reason, tt.reason)
			}
		})
	}
}

func TestConvertNotes(t *testing.T) {
	t.Parallel()
	e := convertServer("s", []byte(`{"command":"x","disabled":true,"alwaysAllow":["a"],"env":{"GONE":null}}`), dialect{vars: plainVars})
	if e.Reason != "" || len(e.Notes) != 3 {
		t.Fatalf("got %+v, want three notes", e)
	}
	if _, ok := e.Config.Env["GONE"]; ok {
		t.Error("null env value kept")
	}
}

func TestBrokenFilesAreProblemsNotPanics(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := Env{Home: filepath.Join(dir, "home"), ConfigDir: dir, Cwd: dir}
	path := filepath.Join(dir, ".cursor", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		`{"mcpServers": {"a": {"command": "x"},`: "invalid JSON",
		"{\n  \"mcpServers\": [1, 2]\n}":         "not a JSON object of servers",
		`"just a string"`:                        "expected a JSON object",
		`null`:                                   "null",
	}
	for content, want := range cases {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := Read(Cursor, env)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Error(), want) ||
			!strings.Contains(res.Problems[0].Error(), path) {
			t.Errorf("%q: problems %v, want one naming %s and %q", content, res.Problems, path, want)
		}
	}
	if err := os.WriteFile(path, []byte("{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n    \"b\": {}\n  }\n}"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ := Read(Cursor, env)
	if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Error(), "mcp.json:4:5") {
		t.Errorf("want line and column 4:5, got %v", res.Problems)
	}
}

func TestEditorVars(t *testing.T) {
	t.Parallel()
	conv := editorVars("VS Code", "/w/proj", "/home/me")
	tests := []struct{ in, want, err string }{
		{"${env:A}/${env:B}", "${A}/${B}", ""},
		{"${workspaceFolder}/x", "/w/proj/x", ""},
		{"${workspaceFolderBasename}", "proj", ""},
		{"${userHome}${pathSeparator}y", "/home/me/y", ""},
		{"plain $HOME and $$", "plain $HOME and $$", ""},
		{"unterminated ${env:A", "unterminated ${env:A", ""},
		{"${input:key}", "", "input prompt"},
		{"${command:pick}", "", "cannot resolve"},
		{"${env:}", "", "cannot resolve"},
	}
	for _, tt := range tests {
		got, err := conv(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: err %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%q → %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestDetectTransport(t *testing.T) {
	t.Parallel()
	tests := map[string]model.Transport{
		"ws://localhost:3000":                model.TransportWS,
		"WSS://h/mcp":                        model.TransportWS,
		"https://mcp.linear.app/sse":         model.TransportSSE,
		"https://h/sse/":                     model.TransportSSE,
		"https://h/api/SSE/stream":           model.TransportSSE,
		"https://h/mcp":                      model.TransportHTTP,
		"https://h/ssemantics":               model.TransportHTTP,
		"http://127.0.0.1:8080":              model.TransportHTTP,
		"https://${HOST:-example.com}/x/sse": model.TransportSSE,
	}
	for in, want := range tests {
		got, err := DetectTransport(in)
		if err != nil || got != want {
			t.Errorf("%s → %s, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "localhost:3000", "file:///x", "mailto:a@b", "https://"} {
		if _, err := DetectTransport(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestStripJSONC(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"{\"a\": 1, // c\n}":             "{\"a\": 1      \n}",
		"[1,2,]":                         "[1,2 ]",
		"{\"s\": \"// not, a comment\"}": "{\"s\": \"// not, a comment\"}",
		"/* x */{}":                      "       {}",
		"\xEF\xBB\xBF{}":                 "   {}",
		"{\"e\": \"q\\\"//\"}":           "{\"e\": \"q\\\"//\"}",
		"[1, /* , */ ]":                  "[1          ]",
		"/* open":                        "       ",
	}
	for in, want := range tests {
		if got := string(stripJSONC([]byte(in))); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}
