package status

import (
	"fmt"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/pins"
)

// PinsRow is what a server's row says of what it tells a model: "tools
// changed: 2 withheld" while the engine withholds items, "" otherwise.
func PinsRow(s *engine.ServerSnapshot) string {
	n := s.Pins.Withheld()
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("tools changed: %d withheld", n)
}

// PinsLine is the overview's sentence about the server's pins: off and
// why, the changes and how many are withheld, or that all is as accepted.
func PinsLine(s *engine.ServerSnapshot) string {
	p := s.Pins
	switch {
	case p.Off != "":
		return "not pinned (" + p.Off + "): its tools are offered as they come"
	case len(p.Listed) == 0 && len(p.Changes) == 0:
		return ""
	case len(p.Changes) == 0:
		return "as you accepted them"
	}
	line := fmt.Sprintf("%d change(s) since you accepted them, %d withheld until you review them", len(p.Changes), p.Withheld())
	if p.LockFile != "" {
		line += "; checked against " + pins.LockFileName
	}
	return line
}

// ChangeWords say how a change stands: "changed, withheld", "new,
// differs from lock, withheld", "removed".
func ChangeWords(c pins.Change) string {
	w := string(c.Status)
	if c.Lock && c.Status != pins.StatusLock {
		w += ", differs from lock"
	}
	if c.Withheld {
		w += ", withheld"
	}
	return w
}
