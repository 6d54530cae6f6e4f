// Package clisession holds engine sessions: an engine started for one
// command that connects only the servers it needs (EngineFlags,
// StartSession, WithServer), its answers to a server's questions on the
// terminal or by --elicit, the engine options the TUI shares, and the words
// for a server's outcome.
package clisession
