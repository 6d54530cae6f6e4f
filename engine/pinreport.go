package engine

import (
	"github.com/mcpdeck/mcpdeck/model/pins"
	"github.com/mcpdeck/mcpdeck/model/scan"
)

// PinReport is how what a server tells a model stands against what the
// person accepted (engine/pins.go decides it; the UIs word it): the
// changes since its pins or from the repository's lock file, which of
// them are withheld, and what the scan found.
type PinReport struct {
	// Off says why the server's tools are not pinned ("" = pinned):
	// "pinTools": false in the person's user or local config.
	Off string `json:"off,omitempty"`
	// Note is a sentence about a "pinTools" that does not count.
	Note string `json:"note,omitempty"`
	// Changes are the items not as pinned (new, changed, removed, or not
	// as the lock file says), sorted by kind then name; a Withheld one is
	// not offered, called or read until the person accepts it.
	Changes []pins.Change `json:"changes,omitempty"`
	// Findings are the scan's (model/scan) of the live listing; Scanning
	// says a scan of it is still under way (its findings come later).
	Findings []scan.Finding `json:"findings,omitempty"`
	Scanning bool           `json:"scanning,omitempty"`
	// LockFile is the repository lock file whose entry for the server
	// applies ("" when none does); LockProblems what in it was ignored.
	LockFile     string   `json:"lockFile,omitempty"`
	LockProblems []string `json:"lockProblems,omitempty"`
	// Items are the live listing's pins (hashes, texts masked), for `mcp
	// lock`; Listed the kinds it listed.
	Items  []pins.Item        `json:"-"`
	Listed map[pins.Kind]bool `json:"-"`
}

// Withheld counts the items withheld until reviewed.
func (r PinReport) Withheld() int {
	n := 0
	for _, c := range r.Changes {
		if c.Withheld {
			n++
		}
	}
	return n
}

// Status is how the item kind/name stands ("" when as pinned).
func (r PinReport) Status(kind pins.Kind, name string) (pins.Status, bool) {
	for _, c := range r.Changes {
		if c.Kind == kind && c.Name == name {
			return c.Status, c.Withheld
		}
	}
	return "", false
}
