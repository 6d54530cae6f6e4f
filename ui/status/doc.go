// Package status words a server's snapshot for people: the one place the
// TUI and the CLI learn what to call a server's state, which glyph and tone
// it gets (one entry per kind, kinds), why it is not running, how its
// counts read and which badges its tools wear. The engine decides (the
// reducer, engine/lifecycle, puts a structured model.Reason in every
// snapshot, the engine the definition's Blockers and whether it may run,
// Runnable); this package only formats, one small function per reason,
// and never parses engine text. Rewording a sentence here cannot change
// behaviour.
package status
