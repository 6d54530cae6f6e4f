// Package status words a server's snapshot for people: the one place the
// TUI and the CLI learn what to call a server's state, which glyph and tone
// it gets, why it is not running and how its counts read. The engine
// decides (engine/step.go puts a structured model.Reason and the
// definition's Blockers in every snapshot); this package only formats, one
// small function per reason, and never parses engine text. Rewording a
// sentence here cannot change behaviour.
package status
