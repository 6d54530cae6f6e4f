package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
)

// Each malformed file must give a problem naming the file (and line, column
// and field where there is one), must not stop the other files' servers from
// loading, and must be left byte for byte as it was by a refused write.
func TestMalformedConfigs(t *testing.T) {
	huge := `{"mcpServers": {}, "pad": "` + strings.Repeat("x", jsonfile.MaxConfigSize) + `"}`
	for _, tc := range []struct {
		name    string
		content string
		// want: substrings of the file-level problem; "" means no file problem
		want []string
		// server: a server of the broken file that must still be listed with a
		// problem: serverWant, then where it is (at, after the file name)
		server, serverWant, at string
	}{
		{name: "truncated", content: "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\"", want: []string{":2:", "unexpected end of file"}},
		{name: "syntax", content: "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\",}\n}}", want: []string{":2:", "invalid character"}},
		{name: "not-object", content: `["mcpServers"]`, want: []string{":1:1)", "must be a JSON object, got array"}},
		{name: "servers-not-object", content: `{"mcpServers": ["a"]}`, want: []string{":1:16)", "field mcpServers: must be an object, got array"}},
		{name: "dup-top-key", content: "{\"mcpServers\": {},\n \"mcpServers\": {}}", want: []string{":2:2)", `duplicate key "mcpServers"`}},
		{name: "trailing", content: `{"mcpServers": {}} {}`, want: []string{"unexpected data after"}},
		{name: "huge", content: huge, want: []string{"larger than 10 MB"}},
		{name: "deep", content: `{"x": ` + strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + "}", want: []string{":1:", "nesting deeper than 1000 levels"}},
		{
			name: "wrong-type", content: "{\"mcpServers\": {\n  \"bad\": {\"command\": \"x\", \"args\": \"-y\"},\n  \"fine\": {\"command\": \"y\"}\n}}",
			server: "bad", serverWant: "server bad, field args: must be an array of strings, got string", at: ":2:35",
		},
		{
			name: "dup-server", content: "{\"mcpServers\": {\n  \"bad\": {\"command\": \"x\"},\n  \"bad\": {\"command\": \"z\"}\n}}",
			server: "bad", serverWant: `server bad, duplicate key "bad": the server is defined twice in this file`, at: ":3:3",
		},
		{
			name: "dup-field", content: "{\"mcpServers\": {\"bad\": {\"command\": \"x\",\n \"command\": \"y\"}}}",
			server: "bad", serverWant: `server bad, field command: duplicate key "command"`, at: ":2:2",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.write(f.projectFile(), servers("other", `{"command":"ok"}`))
			broken := f.write(f.userFile(), tc.content)
			r := f.load()
			if _, ok := r.Server("other"); !ok {
				t.Fatalf("a broken user file hid the project server; servers %v", serverNames(r))
			}
			if len(tc.want) > 0 {
				if len(r.Problems) != 1 {
					t.Fatalf("problems = %v, want exactly one", r.Problems)
				}
				msg := r.Problems[0].Error()
				for _, w := range append([]string{broken}, tc.want...) {
					if !strings.Contains(msg, w) {
						t.Errorf("problem %q lacks %q", msg, w)
					}
				}
			} else if len(r.Problems) != 0 {
				t.Errorf("unexpected file problems %v", r.Problems)
			}
			if tc.server != "" {
				s := mustServer(t, r, tc.server)
				// the cause first, then where: a narrow screen cuts the path, not the reason
				want := tc.serverWant + " (" + broken + tc.at + ")"
				if s.Runnable() || len(s.Problems) == 0 || s.Problems[0].Error() != want {
					t.Errorf("server problem = %v, want %s", s.Problems, want)
				}
				if tc.name == "wrong-type" {
					if fine := mustServer(t, r, "fine"); !fine.Runnable() {
						t.Errorf("sibling server of a bad one must still run: %v", fine.Problems)
					}
				}
			}
			// A write to a file that cannot be parsed is refused and leaves it untouched.
			_, err := AddServer(f.opts(), model.ScopeUser, "new", model.ServerConfig{Command: "x"})
			if len(tc.want) > 0 {
				if !errors.Is(err, model.ErrInvalid) || !errors.Is(err, model.ErrFileUnusable) || !strings.Contains(err.Error(), broken) {
					t.Errorf("AddServer on a broken file: %v, want ErrInvalid and ErrFileUnusable naming the file", err)
				}
				if f.read(broken) != tc.content {
					t.Error("the broken file was modified")
				}
			}
		})
	}
}

func TestBOMAccepted(t *testing.T) {
	f := newFixture(t)
	path := f.write(f.userFile(), "\xEF\xBB\xBF"+servers("a", `{"command":"x"}`))
	r := f.load()
	if s := mustServer(t, r, "a"); !s.Runnable() || len(r.Problems) != 0 {
		t.Fatalf("BOM file: %v %v", s.Problems, r.Problems)
	}
	if _, err := AddServer(f.opts(), model.ScopeUser, "b", model.ServerConfig{Command: "y"}); err != nil {
		t.Fatal(err)
	}
	got := f.read(path)
	if !strings.HasPrefix(got, "\xEF\xBB\xBF") || !strings.Contains(got, `"b"`) {
		t.Errorf("rewrite lost the BOM or the new server:\n%q", got)
	}
	mustServer(t, f.load(), "b")
}

func TestUnreadableFile(t *testing.T) {
	f := newFixture(t)
	f.write(f.projectFile(), servers("other", `{"command":"ok"}`))
	// A directory where the file should be cannot be read, even by root.
	if err := os.MkdirAll(f.userFile(), 0o755); err != nil {
		t.Fatal(err)
	}
	r := f.load()
	mustServer(t, r, "other")
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Error(), "cannot read the file: it is a directory, not a file ("+f.userFile()+")") {
		t.Errorf("problems = %v", r.Problems)
	}

	// Permission bits, where they bind (not as root).
	g := newFixture(t)
	p := g.write(g.userFile(), servers("a", `{"command":"x"}`))
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.ReadFile(p); err == nil {
		t.Skip("running as a user who can read mode-000 files (root); covered by the directory case")
	}
	r = g.load()
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Error(), "permission denied") {
		t.Errorf("problems = %v", r.Problems)
	}
}

func TestEmptyFileIsEmptyConfig(t *testing.T) {
	f := newFixture(t)
	f.write(f.userFile(), "  \n")
	if r := f.load(); len(r.Problems) != 0 || len(r.Servers) != 0 {
		t.Errorf("empty file: %v %v", r.Problems, r.Servers)
	}
}

func TestDynamicConfigProblems(t *testing.T) {
	f := newFixture(t)
	r := f.load("missing.json", `{"mcpServers": {"a": {"command": 1}}}`, `{"mcpServers": `)
	if len(r.Problems) != 2 {
		t.Fatalf("problems = %v", r.Problems)
	}
	if want := "--mcp-config file does not exist (" + filepath.Join(f.cwd, "missing.json") + ")"; r.Problems[0].Error() != want {
		t.Errorf("got %q want %q", r.Problems[0].Error(), want)
	}
	if p := r.Problems[1].Error(); !strings.HasPrefix(p, "invalid JSON") || !strings.HasSuffix(p, "("+inlineSource+":1:16)") {
		t.Errorf("inline problem = %q", r.Problems[1].Error())
	}
	a := mustServer(t, r, "a")
	if a.Source != inlineSource || len(a.Problems) != 1 || a.Problems[0].Field != "command" {
		t.Errorf("inline server: %+v", a)
	}
}
