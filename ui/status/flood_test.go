package status

import (
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
)

// TestFloodWordsTheBurst: no burst, no notice; a burst is one sentence with
// its counts and the server's name sanitized.
func TestFloodWordsTheBurst(t *testing.T) {
	s := engine.ServerSnapshot{Name: "evil\x1b[2J"}
	if got := Flood(&s); got != "" {
		t.Errorf("no burst: %q", got)
	}
	s.Flood = engine.AskFlood{Seq: 2, Sent: 10000, Declined: 9996, Limit: 4}
	if got, want := Flood(&s), "server evil sent 10000 requests at once; mcpdeck lets 4 wait for an answer and declined the rest (9996)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
