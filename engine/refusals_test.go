package engine

import (
	"strconv"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
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

// TestAllowedHostIsNoLongerRefused: once the server's network list holds a
// refused host's entry (H added it), that refusal is not the one to act
// on: the overview's Blocked line goes, and H has nothing to add again.
func TestAllowedHostIsNoLongerRefused(t *testing.T) {
	s := ServerSnapshot{Refusals: []Refusal{{Port: 1, Allow: "a.example:443"}, {Port: 2, Allow: "b.example:443"}}}
	s.Config.Sandbox = &model.Sandbox{Network: model.SandboxNetwork{Hosts: []string{"b.example:443"}}}
	if r, ok := s.LastRefusal(); !ok || r.Allow != "a.example:443" {
		t.Errorf("LastRefusal = %+v %v, want a.example:443 (b is allowed now)", r, ok)
	}
	s.Config.Sandbox.Network.Hosts = append(s.Config.Sandbox.Network.Hosts, "a.example:443")
	if r, ok := s.LastRefusal(); ok {
		t.Errorf("LastRefusal = %+v, want none: every refused host is allowed", r)
	}
}
