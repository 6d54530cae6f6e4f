package serve

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine"
)

// TestListsAndCallsEveryServer: two real servers are offered as one, their
// tools named SERVER__TOOL; a call reaches the right server; a URI both
// offer is offered once (the first server's) and the person is told.
func TestListsAndCallsEveryServer(t *testing.T) {
	r := newRig(t, map[string]any{
		"fa": fault(nil, map[string]string{"WHO": "a"}),
		"fb": fault(nil, map[string]string{"WHO": "b"}),
	}, Options{}, nil)
	a := r.httpAgent()
	names := a.toolNames(t)
	for _, want := range []string{"fa__echo", "fa__add", "fb__echo", "fb__env"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list lacks %s: %v", want, names)
		}
	}
	if got, isErr := a.call(t, "fa__add", map[string]any{"a": 1, "b": 2}); isErr || got != "3" {
		t.Errorf("fa__add = %q (error %v), want 3", got, isErr)
	}
	if got, _ := a.call(t, "fb__env", map[string]any{"name": "WHO"}); got != "b" {
		t.Errorf("fb__env WHO = %q, want b: the call went to the wrong server", got)
	}
	res, err := a.ListResources(t.Context(), mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Resources) != 1 || res.Resources[0].URI != "fault://ticker" {
		t.Errorf("resources = %+v, want fault://ticker once", res.Resources)
	}
	read, err := a.ReadResource(t.Context(), mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: "fault://ticker"}})
	if err != nil || len(read.Contents) == 0 {
		t.Errorf("reading fault://ticker: %v %+v", err, read)
	}
	for _, want := range []string{"server fa is connected", "server fb is connected", "resource fault://ticker of fb is not offered: fa offers the same URI"} {
		if !strings.Contains(r.log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, r.log)
		}
	}
}

// TestNameCollisions: servers "f.a" and "f_a" both offer echo as f_a__echo
// (the same normalization as mcp__f_a__echo); the first in the engine's
// order keeps the name, calls reach it, and the person is told which tool
// was left out. Hostile tool names come out as SERVER__TOOL within 64
// characters of [a-zA-Z0-9_-].
func TestNameCollisions(t *testing.T) {
	r := newRig(t, map[string]any{
		"f.a":                      fault(nil, map[string]string{"WHO": "dot"}),
		"f_a":                      fault(nil, map[string]string{"WHO": "underscore"}),
		"hostile":                  fault([]string{"-hostile"}, nil),
		strings.Repeat("long", 20): fault(nil, nil),
	}, Options{}, nil)
	a := r.stdioAgent()
	names := a.toolNames(t)
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	count := 0
	for _, n := range names {
		if !valid.MatchString(n) {
			t.Errorf("tool name %q is not a valid MCP tool name", n)
		}
		if n == "f_a__echo" {
			count++
		}
	}
	if count != 1 {
		t.Errorf("f_a__echo offered %d times: %v", count, names)
	}
	if got, _ := a.call(t, "f_a__env", map[string]any{"name": "WHO"}); got != "dot" {
		t.Errorf("f_a__env reached %q, want the first server (f.a)", got)
	}
	if want := "tool f_a/echo is not offered: its name f_a__echo is already f.a/echo's"; !strings.Contains(r.log.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, r.log)
	}
	long := 0
	for _, n := range names {
		if strings.HasPrefix(n, "longlong") {
			long++
		}
	}
	if long == 0 {
		t.Errorf("the long-named server's tools are missing: %v", names)
	}
}

// TestOnlyServersThatMayRunAreOffered: a repository's server awaiting
// approval and a server the person disabled are not offered (nor started);
// the person is told why, with what to run.
func TestOnlyServersThatMayRunAreOffered(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, func(eo *engine.Options) {
		mcpJSON, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"repo": fault(nil, nil)}})
		if err := os.WriteFile(filepath.Join(eo.Load.Cwd, ".mcp.json"), mcpJSON, 0o644); err != nil {
			t.Fatal(err)
		}
	})
	// stdio: over HTTP a list_changed sent before the agent's event stream
	// is open is lost, and the point here is what is offered.
	a := r.stdioAgent()
	names := a.toolNames(t)
	if !slices.Contains(names, "fa__echo") {
		t.Fatalf("fa's tools are not offered: %v", names)
	}
	for _, n := range names {
		if strings.HasPrefix(n, "repo__") {
			t.Errorf("%s is offered before the person approved repo", n)
		}
	}
	if want := "server repo is awaiting approval (approve it with: mcpdeck mcp approve repo)"; !strings.Contains(r.log.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, r.log)
	}
	if err := r.gw.eng.Disable(t.Context(), "fa"); err != nil {
		t.Fatal(err)
	}
	a.waitTools(t, "fa's tools gone", func(n []string) bool { return !slices.Contains(n, "fa__echo") })
}

// TestExposeLeavesOutWhatTheLibraryRefuses: a server's tool whose schema
// mcp-go would refuse to register (an x-mcp-header on an object: it
// panics) is left out with a note, and an empty or non-object schema is
// offered as an empty object; the other tools are offered.
func TestExposeLeavesOutWhatTheLibraryRefuses(t *testing.T) {
	snap := snapOf("s")
	snap.Servers[0].Tools = []engine.Tool{
		{Name: "bad", InputSchema: json.RawMessage(`{"type":"object","properties":{"o":{"type":"object","x-mcp-header":"X-O"}}}`)},
		{Name: "bare"},
		{Name: "odd", InputSchema: json.RawMessage(`"not a schema"`)},
	}
	x := expose(snap, filter{prefix: PrefixAlways})
	if len(x.tools) != 2 || x.tools[0].Name != "s__bare" || string(x.tools[1].RawInputSchema) != `{"type":"object"}` {
		t.Errorf("tools = %+v", x.tools)
	}
	if len(x.left) != 1 || !strings.Contains(x.left[0], "tool s/bad is not offered: ") {
		t.Errorf("left = %q", x.left)
	}
	srv := server.NewMCPServer("t", "1")
	for _, tl := range x.tools {
		srv.AddTool(tl, nil) // panics on a definition it refuses
	}
}
