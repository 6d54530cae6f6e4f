package mcpcmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

func TestUsageErrorsExit2(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.OK("mcp", "add", "exists", "--", "x")
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
		r := e.Fails(2, args...)
		if !strings.Contains(r.Stderr, "--help") {
			t.Errorf("%v: usage error does not point to --help: %q", args, r.Stderr)
		}
	}
	if r := e.Fails(2, "mcp", "add", "n", "npx", "-y", "pkg"); !strings.Contains(r.Stderr, "put the command after --") {
		t.Errorf("a stdio command without --: %s", r)
	}
	if _, err := os.Stat(e.ScopeFile("project")); err == nil {
		t.Error("a usage error created .mcp.json")
	}
	if servers, _ := e.List(); len(servers) != 1 {
		t.Errorf("usage errors changed the config: %+v", servers)
	}
}

func TestFailuresExit1(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.OK("mcp", "add", "dup", "--", "local-cmd")
	e.OK("mcp", "add", "-s", "user", "dup", "--", "user-cmd")

	if r := e.Fails(1, "mcp", "add", "dup", "--", "again"); !strings.Contains(r.Stderr, "already defined") {
		t.Errorf("add existing: %s", r)
	}
	if r := e.Run("mcp", "remove", "dup"); r.Code != 1 || !strings.Contains(r.Stderr, "mcpdeck mcp remove dup -s local\n") || !strings.Contains(r.Stderr, "mcpdeck mcp remove dup -s user\n") {
		t.Errorf("remove from several scopes without -s should give the command for each: %s", r)
	}
	e.Fails(1, "mcp", "get", "ghost")
	e.Fails(1, "mcp", "remove", "ghost")
	e.Fails(1, "mcp", "remove", "dup", "-s", "project")
	if r := e.Fails(1, "mcp", "import", "--from", "cursor"); !strings.Contains(r.Stderr, ".cursor") {
		t.Errorf("import with nothing to import: %s", r)
	}
	e.Fails(1, "mcp", "import", "--from", "vscode", "--file", filepath.Join(e.Proj, "missing.json"))

	// The local definition overrides the user one; get shows both.
	if out := e.OK("mcp", "get", "dup").Stdout; !strings.Contains(out, "Overrides:") || !strings.Contains(out, "user") {
		t.Errorf("get dup does not show the overridden definition:\n%s", out)
	}
	e.OK("mcp", "remove", "dup", "-s", "user")
	e.OK("mcp", "remove", "dup")
}

func TestMalformedConfigStillListsTheRest(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.OK("mcp", "add", "good", "--", "good-cmd")
	broken := e.ScopeFile("user")
	content := "{\n  \"mcpServers\": {\n    \"lost\": {\"command\": \"x\",\n"
	e.WriteFile(broken, content)

	for _, args := range [][]string{{"mcp", "list", "--no-connect"}, {"mcp", "list", "--no-connect", "--json"}} {
		r := e.Run(args...)
		if r.Code != 1 {
			t.Fatalf("%v with a broken file: %s", args, r)
		}
		if !strings.Contains(r.Stdout, "good") {
			t.Errorf("%v: the servers of other files are not listed: %s", args, r)
		}
		lines := strings.Split(strings.TrimSpace(r.Stderr), "\n")
		if len(lines) != 1 || !strings.HasPrefix(lines[0], "mcpdeck: invalid JSON") || !strings.Contains(lines[0], "("+broken+":") {
			t.Errorf("%v: want one error line naming %s with its line: %q", args, broken, r.Stderr)
		}
	}
	_, doc := e.List()
	if len(doc.Problems) != 1 || doc.Problems[0].File != broken || doc.Problems[0].Line == 0 {
		t.Errorf("JSON problems = %+v", doc.Problems)
	}
	if r := e.Run("mcp", "get", "good"); r.Code != 0 {
		t.Errorf("get of a server in a healthy file: %s", r)
	}
	// Writing to the broken file is refused and loses nothing.
	e.Fails(1, "mcp", "add", "-s", "user", "new", "--", "x")
	if e.ReadFile(broken) != content {
		t.Error("a failed add changed the broken file")
	}
	// Wrong types are located too.
	e.WriteFile(broken, `{"mcpServers": {"typed": {"command": "x", "args": "not-a-list"}}}`)
	r := e.Run("mcp", "list", "--no-connect")
	if !strings.Contains(r.Stdout, "typed") || !strings.Contains(r.Stdout, "args") {
		t.Errorf("a server with a wrong field type should be listed with its problem: %s", r)
	}
}
