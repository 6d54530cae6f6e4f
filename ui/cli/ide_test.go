package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/testdata/fakeeditor/editorlaunch"
)

// TestIDEServerEndToEnd: a fake editor with the project open, found
// through ~/.claude/ide, is the row "ide" of `mcp list` and what `mcp get
// ide` shows, named after the editor and needing no approval; `call`
// reaches its tools; its token is in no output: the list, get, --json, a
// trace, a support bundle.
func TestIDEServerEndToEnd(t *testing.T) {
	path := editorlaunch.Build(t)
	e := clitest.NewEnv(t)
	e.WriteFile(filepath.Join(e.Proj, "main.go"), "package main\n// ERROR: undefined: y\n")
	ed := editorlaunch.Start(t, path, "-dir", filepath.Join(e.Home, ".claude"), "-workspace", e.Proj, "-name", "Neovim")

	r := e.OK("mcp", "list")
	want := "✓ ide: ws://127.0.0.1:" + strconv.Itoa(ed.Port) + " (ws-ide, from Neovim (pid " + strconv.Itoa(ed.PID) + ")) — connected · 5 tools"
	if !strings.Contains(r.Stdout, want) {
		t.Fatalf("mcp list lacks %q:\n%s", want, r)
	}
	js := e.OK("--json", "mcp", "list")
	if !strings.Contains(js.Stdout, `"editor": {`) || !strings.Contains(js.Stdout, `"name": "Neovim"`) {
		t.Errorf("--json lacks the editor:\n%s", js.Stdout)
	}
	get := e.OK("mcp", "get", "ide")
	for _, want := range []string{"dynamic (from Neovim (pid " + strconv.Itoa(ed.PID) + "))", "Transport:      ws-ide", "Approval:       not needed", "Status:         ✓ connected"} {
		if !strings.Contains(get.Stdout, want) {
			t.Errorf("mcp get ide lacks %q:\n%s", want, get)
		}
	}
	getJS := e.OK("--json", "mcp", "get", "ide")
	e.Fails(1, "mcp", "get", "--no-connect", "ide") // the config files alone know no editor
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	call := e.OK("--trace", trace, "call", "ide", "getDiagnostics")
	if !strings.Contains(call.Stdout, "undefined: y") {
		t.Errorf("call ide getDiagnostics:\n%s", call)
	}
	// The editor echoes its token back: the trace masks it in both frames.
	e.OK("--trace", trace, "call", "ide", "executeCode", `code=print("`+ed.Token+`")`)
	traced, err := os.ReadFile(trace)
	if err != nil || !strings.Contains(string(traced), "executeCode") {
		t.Fatalf("trace: %v\n%s", err, traced)
	}
	bundle := filepath.Join(t.TempDir(), "bundle.tar.gz")
	doc := e.Run("doctor", "--bundle", bundle)
	if doc.Code > 1 {
		t.Fatalf("doctor --bundle: %s", doc)
	}
	outputs := map[string]string{"list": r.Stdout + r.Stderr, "json": js.Stdout, "get": get.Stdout, "get json": getJS.Stdout, "call": call.Stdout + call.Stderr, "trace": string(traced), "doctor": doc.Stdout + doc.Stderr}
	for name, body := range clitest.ReadBundle(t, bundle) {
		outputs["bundle "+name] = body
	}
	for where, text := range outputs {
		if strings.Contains(text, ed.Token) {
			t.Errorf("the editor's token is in the %s:\n%s", where, text)
		}
	}
}
