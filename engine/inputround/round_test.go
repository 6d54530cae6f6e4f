package inputround

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestInputRoundKeys: a request for input of a call's input-required
// round gets the server's key back by its method and parameters (else the
// first key left of its method), each key once (two identical questions
// get both keys), with the round's keys and
// a channel that hears each key the engine settled; outside a round (a
// server's own request, no call) the key is empty.
func TestInputRoundKeys(t *testing.T) {
	ic := &Current{}
	if in, settle := ic.Claim(mcp.MethodListRoots, nil); in.Key != "" {
		t.Fatalf("before any round: key %q", in.Key)
	} else {
		settle()
	}
	form := mcp.ElicitationParams{Message: "Name?", RequestedSchema: map[string]any{"type": "object"}}
	round := mcp.NewInputRequiredResult(mcp.InputRequests{
		"a":     mcp.NewElicitationInputRequest(form),
		"b":     mcp.NewElicitationInputRequest(form),
		"other": mcp.NewElicitationInputRequest(mcp.ElicitationParams{Message: "Colour?"}),
		"roots": mcp.NewRootsInputRequest(),
	}, "")
	raw, err := json.Marshal(round)
	if err != nil {
		t.Fatal(err)
	}
	if got := ic.Note(raw); string(got) != string(raw) {
		t.Fatalf("Note changed the result: %s", got)
	}
	var keys []string
	for range 2 {
		in, settle := ic.Claim(mcp.MethodElicitationCreate, form)
		keys = append(keys, in.Key)
		settle()
		if len(in.Keys) != 4 || in.Settled == nil {
			t.Fatalf("claim = %+v, want the round's 4 keys and a channel", in)
		}
	}
	if keys[0] != "a" || keys[1] != "b" {
		t.Errorf("two identical questions got %v, want [a b]", keys)
	}
	if in, _ := ic.Claim(mcp.MethodElicitationCreate, form); in.Key != "other" {
		t.Errorf("a third identical question got %q, want the one left of its method, other", in.Key)
	}
	if in, _ := ic.Claim(mcp.MethodElicitationCreate, form); in.Key != "" {
		t.Errorf("a fourth question got %q, want none: the round has no more", in.Key)
	}
	in, settle := ic.Claim(mcp.MethodListRoots, nil)
	if in.Key != "roots" {
		t.Errorf("roots/list got %q", in.Key)
	}
	settle()
	for _, want := range []string{"a", "b", "roots"} {
		if got := <-in.Settled; got != want {
			t.Errorf("settled %q, want %q", got, want)
		}
	}
	var none *Current
	if in, _ := none.Claim(mcp.MethodSamplingCreateMessage, nil); in.Key != "" {
		t.Errorf("no call: key %q", in.Key)
	}
}
