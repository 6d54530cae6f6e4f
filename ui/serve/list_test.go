package serve

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
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
