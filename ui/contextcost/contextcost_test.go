package contextcost

import (
	"encoding/json"
	"testing"
)

// TestCountsMatchTheTokenizer: known inputs give the o200k counts.
func TestCountsMatchTheTokenizer(t *testing.T) {
	var c Counter
	for text, want := range map[string]int{"hello world": 2, "": 0} {
		if n, err := c.Count(text); err != nil || n != want {
			t.Errorf("Count(%q) = %d, %v; want %d", text, n, err, want)
		}
	}
	tool := Tool{Name: "echo", Description: "Echo text back", InputSchema: json.RawMessage(`{"type":"object"}`)}
	n, err := c.ToolTokens(tool)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := c.Count(`{"name":"echo","description":"Echo text back","input_schema":{"type":"object"}}`)
	if n != want || n == 0 {
		t.Fatalf("ToolTokens = %d, want %d", n, want)
	}
}

// TestToDisableGetsUnderTheLimit: the largest tools go first, only as
// many as needed.
func TestToDisableGetsUnderTheLimit(t *testing.T) {
	s := ServerCost{Server: "s", Tokens: 12000, Tools: []ToolCost{{Name: "a", Tokens: 1500}, {Name: "b", Tokens: 1000}, {Name: "c", Tokens: 500}}}
	got := ToDisable(s, ServerLimit)
	if len(got) != 2 || got[0].Name != "a" || got[1].Name != "b" {
		t.Fatalf("%+v", got)
	}
	if got := ToDisable(ServerCost{Tokens: 10}, ServerLimit); len(got) != 0 {
		t.Fatalf("%+v", got)
	}
}
