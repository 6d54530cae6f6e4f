package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// knownMethods are the requests mcp-go's server handles, those of
// 2026-07-28 (server/discover, subscriptions/listen) excepted: an older
// server knows only these.
var knownMethods = []string{
	"initialize", "ping", "logging/setLevel", "completion/complete",
	"resources/list", "resources/templates/list", "resources/read", "resources/subscribe", "resources/unsubscribe",
	"prompts/list", "prompts/get", "tools/list", "tools/call",
	"tasks/get", "tasks/list", "tasks/result", "tasks/cancel",
}

// unknownExitCode is how -die-on-unknown-method exits, as old servers do
// on a method they do not know.
const unknownExitCode = 4

// knows reports whether the server knows the request method m: one of
// knownMethods, or one of 2026-07-28 with -modern, and not named by
// -unknown.
func (c config) knows(m string) bool {
	if slices.Contains(strings.Split(c.unknown, ","), m) {
		return false
	}
	if m == "server/discover" || m == "subscriptions/listen" {
		return c.modern
	}
	return slices.Contains(knownMethods, m)
}

// onUnknown is what the server does with a request it does not know:
// exit with code 4 (-die-on-unknown-method), close its stdout and wait
// (-close-on-unknown-method), or answer "method not found".
func (c config) onUnknown(m map[string]any) ([]byte, bool) {
	switch {
	case c.dieOnUnknown:
		fmt.Fprintf(os.Stderr, "unknown method %v\n", m["method"])
		os.Exit(unknownExitCode)
	case c.closeOnUnknown:
		fmt.Fprintf(os.Stderr, "unknown method %v: closing stdout\n", m["method"])
		_ = os.Stdout.Close()
		return nil, false
	}
	return unknownMethod(m), true
}
