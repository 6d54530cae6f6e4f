package mcpcmd

import (
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// TestReconnectNote: a server mcp reconnect tried again says so after its
// line: reconnected and how the first attempt ended, or tried twice; one
// it did not try again says nothing more.
func TestReconnectNote(t *testing.T) {
	failed := engine.ServerSnapshot{Name: "s", State: model.StateFailed, Reason: model.Reason{Kind: model.ReasonCrashed, Error: "the server process exited with code 3"}, Error: "the server process exited with code 3"}
	up := engine.ServerSnapshot{Name: "s", State: model.StateConnected}
	other := failed
	other.Error, other.Reason.Error = "the server process exited with code 4", "the server process exited with code 4"
	for _, c := range []struct {
		now    engine.ServerSnapshot
		before map[string]engine.ServerSnapshot
		want   string
	}{
		{up, nil, ""},
		{up, map[string]engine.ServerSnapshot{"s": failed}, " (reconnected; the first attempt failed: the server process exited with code 3)"},
		{failed, map[string]engine.ServerSnapshot{"s": failed}, " (tried twice)"},
		{other, map[string]engine.ServerSnapshot{"s": failed}, " (tried again; the first attempt failed: the server process exited with code 3)"},
	} {
		if got := reconnectNote(c.now, c.before); got != c.want {
			t.Errorf("reconnectNote(%s) = %q, want %q", c.now.State, got, c.want)
		}
	}
}
