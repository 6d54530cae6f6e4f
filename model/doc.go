// Package model is mcpdeck's vocabulary of MCP servers, the one every other
// package speaks: a definition (ServerConfig, its Transport, whose row in
// the transport table holds every fact about it: Transport.Info) and what
// its values mean once ${VAR} references are expanded (Expand); a loaded
// Server and the facts that decide whether it may run (its Scope,
// Approval, PolicyDecision, the Policy it was judged by, its Problems;
// Blockers, the one rule of whether it may run) and where it runs; the
// secrets a definition holds (Server.Secrets, Redact); its connection
// State with the one table of allowed transitions, and the Reason it is
// where it is; the names and hashes derived from a definition (ToolName,
// ConfigHash). It does no I/O beyond finding a program the way the
// launcher will (ResolveProgram) and starts no goroutines.
//
// Around it: model/config finds, merges and edits configuration files;
// model/policy holds managed policy and permission rules; model/private the
// person's decisions about one project; model/textsafe the filter between
// outside text and a terminal, and masking; model/cache what mcpdeck
// remembers between runs; model/launch starts programs; model/platform is
// the OS plumbing under all of them.
package model
