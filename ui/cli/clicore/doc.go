// Package clicore is what every command package of the CLI shares: the
// global options and the process's I/O (Globals), the one sanitizing
// writer all output passes (NewTerminalWriter), usage errors, exit codes
// and argument checks, JSON output (WriteJSON, streamed), the --trace file,
// the masking of the run's secrets, and engine sessions: an engine started
// for one command that connects only the servers it needs (EngineFlags,
// StartSession, WithServer) and the words for a server's outcome.
package clicore
