package batch

import (
	"strings"
	"testing"
)

func TestParseBatchLine(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		line, kind, name, err string
		args                  int
	}{
		{line: `{"tool": "t", "arguments": {"a": 1, "b": [2]}}`, kind: batchTool, name: "t", args: 2},
		{line: `{"tool": "t"}`, kind: batchTool, name: "t"},
		{line: ` {"read": "file:///x"} `, kind: batchRead, name: "file:///x"},
		{line: `{"prompt": "p", "arguments": {"k": "v"}}`, kind: batchPrompt, name: "p", args: 1},
		{line: `{"tool": "t", "arguments": []}`, err: `"arguments" must be a JSON object`},
		{line: `{"tool": "t", "arguments": null}`, err: `"arguments" must be a JSON object`},
		{line: `{"read": "u", "arguments": {}}`, err: `"read" takes no "arguments"`},
		{line: `{"tool": "t", "prompt": "p"}`, err: "only one of"},
		{line: `{"arguments": {}}`, err: `want one of "tool", "read" or "prompt"`},
		{line: `{"tool": ""}`, err: `"tool" is empty`},
		{line: `{"tool": "t", "argument": {}}`, err: `unknown field "argument"`},
		{line: `{"tool": "t"} {"tool": "u"}`, err: "unexpected data"},
		{line: `{"tool": 5}`, err: "not a request object"},
		{line: `tool t`, err: "not a request object"},
	} {
		req, err := parseBatchLine(tt.line)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.line, err, tt.err)
			}
			continue
		}
		if err != nil || req.kind != tt.kind || req.name != tt.name || len(req.args) != tt.args {
			t.Errorf("%s: got %+v, %v", tt.line, req, err)
		}
		if tt.kind != batchRead && req.args == nil {
			t.Errorf("%s: tool and prompt arguments must be an object, got nil", tt.line)
		}
	}
	for _, l := range []string{"", "  ", "# x", "  # y"} {
		if !isBatchSkipped(l) {
			t.Errorf("%q should be skipped", l)
		}
	}
}

// FuzzParseBatchLine: any input line either fails with an error or is a
// request of a known kind with a name, and tools and prompts get an
// argument object.
func FuzzParseBatchLine(f *testing.F) {
	for _, s := range []string{
		`{"tool": "t", "arguments": {"a": 1}}`, `{"read": "u"}`, `{"prompt": "p", "arguments": {"k": "v"}}`,
		`{"tool": "t", "prompt": "p"}`, `{"tool": "t", "arguments": null}`, `[]`, `{"read": "u"} x`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		req, err := parseBatchLine(line)
		if err != nil {
			return
		}
		if req.name == "" {
			t.Fatalf("%q: empty name", line)
		}
		switch req.kind {
		case batchRead:
			if req.args != nil {
				t.Fatalf("%q: read with arguments", line)
			}
		case batchTool, batchPrompt:
			if req.args == nil {
				t.Fatalf("%q: nil arguments", line)
			}
		default:
			t.Fatalf("%q: kind %q", line, req.kind)
		}
	})
}
