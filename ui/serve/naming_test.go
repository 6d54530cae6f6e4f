package serve

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestPrefixAutoOneServer: with one server offered, --prefix auto offers
// its tools and prompts under their own names, calls and prompts/get
// route by them, --tools matches the shown name or SERVER__TOOL, and the
// person is told which naming applies.
func TestPrefixAutoOneServer(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault([]string{"-ask"}, nil)}, Options{Prefix: PrefixAuto, Tools: []string{"echo", "fa__add", "interview"}}, nil)
	a := r.httpAgent()
	names := a.toolNames(t)
	if !slices.Equal(names, []string{"add", "echo", "interview"}) {
		t.Errorf("tools/list = %v, want add, echo, interview", names)
	}
	if got, isErr := a.call(t, "add", map[string]any{"a": 1, "b": 2}); isErr || got != "3" {
		t.Errorf("add = %q (error %v)", got, isErr)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "fa__add"
	if res, err := a.CallTool(t.Context(), req); err == nil && !res.IsError {
		t.Error("fa__add answered: only the shown name routes")
	}
	prompts, err := a.ListPrompts(t.Context(), mcp.ListPromptsRequest{})
	if err != nil || len(prompts.Prompts) != 1 || prompts.Prompts[0].Name != "greet" {
		t.Errorf("prompts/list = %+v, %v", prompts, err)
	}
	if want := "keep their server's names (--prefix auto: one server is offered)"; !strings.Contains(r.log.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, r.log)
	}
}

// TestPrefixAutoManyServers: with two servers offered, --prefix auto is
// SERVER__NAME, as always is.
func TestPrefixAutoManyServers(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil), "fb": fault(nil, nil)}, Options{Prefix: PrefixAuto}, nil)
	names := r.httpAgent().toolNames(t)
	if !slices.Contains(names, "fa__echo") || !slices.Contains(names, "fb__echo") || slices.Contains(names, "echo") {
		t.Errorf("tools/list = %v, want fa__echo and fb__echo", names)
	}
	if want := "named SERVER__NAME (--prefix auto: more than one server is offered)"; !strings.Contains(r.log.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, r.log)
	}
}

// TestPrefixNeverRefusesAClash: --prefix never with two servers offering
// the same tool names refuses to start, naming both servers; leaving one
// server's tools out with --tools lets it start, with their own names.
func TestPrefixNeverRefusesAClash(t *testing.T) {
	servers := map[string]any{"fa": fault(nil, nil), "fb": fault(nil, nil)}
	_, err := startRig(t, servers, Options{Prefix: PrefixNever}, nil)
	if !errors.Is(err, ErrNameClash) || !strings.Contains(err.Error(), "tool echo is offered by fa (echo) and fb (echo)") {
		t.Fatalf("New = %v, want a clash naming fa and fb", err)
	}
	r, err := startRig(t, servers, Options{Prefix: PrefixNever, Tools: []string{"fa__*"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if names := r.httpAgent().toolNames(t); !slices.Contains(names, "echo") || slices.Contains(names, "fa__echo") {
		t.Errorf("tools/list = %v, want fa's own names", names)
	}
}

// TestPrefixNeverWaitsForASlowServer: a clash with a server that connects
// after the lists' wait (--wait) still refuses the start; that wait is for
// agents' lists, not for judging names.
func TestPrefixNeverWaitsForASlowServer(t *testing.T) {
	servers := map[string]any{"fa": fault(nil, nil), "fb": fault([]string{"-start-delay", "2s"}, nil)}
	_, err := startRig(t, servers, Options{Prefix: PrefixNever, StartupWait: time.Second}, nil)
	if !errors.Is(err, ErrNameClash) {
		t.Fatalf("New = %v, want a clash with the slow fb", err)
	}
}

// TestToolsListIsStableAcrossRestarts: the same config gives the same
// tools/list, in the same (sorted) order, every time serve starts.
func TestToolsListIsStableAcrossRestarts(t *testing.T) {
	servers := map[string]any{"fb": fault(nil, nil), "fa": fault(nil, nil)}
	first := newRig(t, servers, Options{Prefix: PrefixAuto}, nil).httpAgent().toolNames(t)
	second := newRig(t, servers, Options{Prefix: PrefixAuto}, nil).httpAgent().toolNames(t)
	if !slices.Equal(first, second) || !slices.IsSorted(first) || len(first) == 0 {
		t.Errorf("tools/list changed across restarts or is not sorted:\n%v\n%v", first, second)
	}
}

// TestParsePrefix: the three choices (and "" as auto), anything else an
// error that names them.
func TestParsePrefix(t *testing.T) {
	for in, want := range map[string]Prefix{"": PrefixAuto, "auto": PrefixAuto, "Always": PrefixAlways, "never": PrefixNever} {
		if got, err := ParsePrefix(in); err != nil || got != want {
			t.Errorf("ParsePrefix(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParsePrefix("sometimes"); !errors.Is(err, ErrBadPrefix) || !strings.Contains(err.Error(), "auto, always or never") {
		t.Errorf("ParsePrefix(sometimes) = %v", err)
	}
}
