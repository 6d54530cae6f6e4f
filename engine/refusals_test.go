package engine

import (
	"strconv"
	"testing"
)

// TestKeepRefusalBounded: the list keeps the newest maxRefusals, oldest
// dropped, and never changes a list a snapshot already holds.
func TestKeepRefusalBounded(t *testing.T) {
	var kept []Refusal
	var held []Refusal
	for i := range maxRefusals + 5 {
		kept = keepRefusal(kept, Refusal{Port: i + 1, Allow: "h:" + strconv.Itoa(i+1)})
		if i == 3 {
			held = kept
		}
	}
	if len(kept) != maxRefusals || kept[0].Port != 6 || kept[len(kept)-1].Port != maxRefusals+5 {
		t.Fatalf("kept %d, first %d, last %d", len(kept), kept[0].Port, kept[len(kept)-1].Port)
	}
	if len(held) != 4 || held[3].Port != 4 {
		t.Fatalf("a held list changed: %+v", held)
	}
	s := ServerSnapshot{Refusals: append(kept, Refusal{Port: 99})} // no entry allows it
	if r, ok := s.LastRefusal(); !ok || r.Port != maxRefusals+5 {
		t.Errorf("LastRefusal %+v %v", r, ok)
	}
	if _, ok := (&ServerSnapshot{}).LastRefusal(); ok {
		t.Error("a refusal out of nothing")
	}
}
