package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUsageErrorsExit2(t *testing.T) {
	t.Parallel()
	e := newCLIEnv(t)
	e.ok("mcp", "add", "exists", "--", "x")
	tests := [][]string{
		{"bogus"},
		{"mcp"},
		{"mcp", "bogus"},
		{"mcp", "lsit"},
		{"--no-such-flag", "mcp", "list"},
		{"mcp", "list", "--no-such-flag"},
		{"mcp", "list", "extra-arg"},
		{"--elicit", "maybe", "mcp", "list"},
		{"mcp", "get"},
		{"mcp", "get", "a", "b"},
		{"mcp", "remove"},
		{"mcp", "remove", "x", "-s", "dynamic"},
		{"mcp", "add"},
		{"mcp", "add", "onlyname"},
		{"mcp", "add", "n", "--"},
		{"mcp", "add", "--", "cmd"},
		{"mcp", "add", "n", "extra", "--", "cmd"},
		{"mcp", "add", "-s", "galaxy", "n", "--", "cmd"},
		{"mcp", "add", "-t", "carrier-pigeon", "n", "https://h/x"},
		{"mcp", "add", "-t", "ws", "n", "https://h/x"},
		{"mcp", "add", "-t", "http", "n", "--", "cmd"},
		{"mcp", "add", "-t", "stdio", "n", "https://h/x"},
		{"mcp", "add", "n", "ftp://h/x"},
		{"mcp", "add", "n", "--", "https://h/x"},
		{"mcp", "add", "n", "https://h/x", "extra"},
		{"mcp", "add", "n", "-e", "NOVALUE", "--", "cmd"},
		{"mcp", "add", "n", "-e", "A=1", "https://h/x"},
		{"mcp", "add", "n", "-H", "no colon", "https://h/x"},
		{"mcp", "add", "n", "-H", "X: y", "--", "cmd"},
		{"mcp", "add", "n", "--client-id", "c", "wss://h/x"},
		{"mcp", "add", "n", "--callback-port", "70000", "https://h/x"},
		{"mcp", "add", "n", "--callback-port", "many", "https://h/x"},
		{"mcp", "add", "all", "--", "cmd"},
		{"mcp", "add", "my server", "--", "cmd"},
		{"mcp", "add-json", "my.server", `{"command": "cmd"}`},
		{"mcp", "add-json", "n"},
		{"mcp", "enable"},
		{"mcp", "approve"},
		{"mcp", "import"},
		{"mcp", "import", "--from", "emacs"},
		{"mcp", "import", "--from", "vscode", "positional"},
	}
	for _, args := range tests {
		r := e.fails(2, args...)
		if !strings.Contains(r.stderr, "--help") {
			t.Errorf("%v: usage error does not point to --help: %q", args, r.stderr)
		}
	}
	if r := e.fails(2, "mcp", "add", "n", "npx", "-y", "pkg"); !strings.Contains(r.stderr, "put the command after --") {
		t.Errorf("a stdio command without --: %s", r)
	}
	if _, err := os.Stat(e.scopeFile("project")); err == nil {
		t.Error("a usage error created .mcp.json")
	}
	if servers, _ := e.list(); len(servers) != 1 {
		t.Errorf("usage errors changed the config: %+v", servers)
	}
}

func TestFailuresExit1(t *testing.T) {
	t.Parallel()
	e := newCLIEnv(t)
	e.ok("mcp", "add", "dup", "--", "local-cmd")
	e.ok("mcp", "add", "-s", "user", "dup", "--", "user-cmd")

	if r := e.fails(1, "mcp", "add", "dup", "--", "again"); !strings.Contains(r.stderr, "already defined") {
		t.Errorf("add existing: %s", r)
	}
	if r := e.fails(1, "mcp", "remove", "dup"); !strings.Contains(r.stderr, "local") || !strings.Contains(r.stderr, "user") {
		t.Errorf("remove from several scopes without -s should list them: %s", r)
	}
	e.fails(1, "mcp", "get", "ghost")
	e.fails(1, "mcp", "remove", "ghost")
	e.fails(1, "mcp", "remove", "dup", "-s", "project")
	if r := e.fails(1, "mcp", "import", "--from", "cursor"); !strings.Contains(r.stderr, ".cursor") {
		t.Errorf("import with nothing to import: %s", r)
	}
	e.fails(1, "mcp", "import", "--from", "vscode", "--file", filepath.Join(e.proj, "missing.json"))

	// The local definition overrides the user one; get shows both.
	if out := e.ok("mcp", "get", "dup").stdout; !strings.Contains(out, "Overrides:") || !strings.Contains(out, "user") {
		t.Errorf("get dup does not show the overridden definition:\n%s", out)
	}
	e.ok("mcp", "remove", "dup", "-s", "user")
	e.ok("mcp", "remove", "dup")
}

func TestMalformedConfigStillListsTheRest(t *testing.T) {
	t.Parallel()
	e := newCLIEnv(t)
	e.ok("mcp", "add", "good", "--", "good-cmd")
	broken := e.scopeFile("user")
	content := "{\n  \"mcpServers\": {\n    \"lost\": {\"command\": \"x\",\n"
	e.write(broken, content)

	for _, args := range [][]string{{"mcp", "list", "--no-connect"}, {"mcp", "list", "--no-connect", "--json"}} {
		r := e.run(args...)
		if r.code != 1 {
			t.Fatalf("%v with a broken file: %s", args, r)
		}
		if !strings.Contains(r.stdout, "good") {
			t.Errorf("%v: the servers of other files are not listed: %s", args, r)
		}
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if len(lines) != 1 || !strings.HasPrefix(lines[0], "mcpdeck: invalid JSON") || !strings.Contains(lines[0], "("+broken+":") {
			t.Errorf("%v: want one error line naming %s with its line: %q", args, broken, r.stderr)
		}
	}
	_, doc := e.list()
	if len(doc.Problems) != 1 || doc.Problems[0].File != broken || doc.Problems[0].Line == 0 {
		t.Errorf("JSON problems = %+v", doc.Problems)
	}
	if r := e.run("mcp", "get", "good"); r.code != 0 {
		t.Errorf("get of a server in a healthy file: %s", r)
	}
	// Writing to the broken file is refused and loses nothing.
	e.fails(1, "mcp", "add", "-s", "user", "new", "--", "x")
	if e.read(broken) != content {
		t.Error("a failed add changed the broken file")
	}
	// Wrong types are located too.
	e.write(broken, `{"mcpServers": {"typed": {"command": "x", "args": "not-a-list"}}}`)
	r := e.run("mcp", "list", "--no-connect")
	if !strings.Contains(r.stdout, "typed") || !strings.Contains(r.stdout, "args") {
		t.Errorf("a server with a wrong field type should be listed with its problem: %s", r)
	}
}
