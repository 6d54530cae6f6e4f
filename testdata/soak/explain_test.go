package main

import "testing"

// TestExplained pins the rule the soak's unexplained count rests on, with
// the sentences mcpdeck says and the raw errors it must not let through.
func TestExplained(t *testing.T) {
	for _, tc := range []struct {
		msg, server string
		want        bool
	}{
		{"server st01 is not connected (attempt 2/5 · retry in 4s): the server process exited with code 3", "st01", true},
		{"server http01 needs authentication (sign in with: mcpdeck auth http01)", "http01", true},
		{"server pst01 is disabled: you disabled it", "pst01", true},
		{"tool call on crash02: the connection was lost during the call (the server process exited with code 3: crashing with code 3); mcpdeck reconnects it (attempt 1/5)", "crash02", true},
		{"tool call on ws03: no answer within 20s (MCP_TOOL_TIMEOUT)", "ws03", true},
		{"tool call on sse01: the server reset the connection at 127.0.0.1:4000", "sse01", true},
		{"calling hang on pst01: the server answered with an error: internal error: context canceled", "pst01", true},
		{"mcpdeck serve offers no tool \"st01__echo\" now: server st01 is disabled: you disabled it", "st01", true},
		{"calling add on flood02: /tmp/x/settings.json:1:18: invalid JSON: unexpected end of file (truncated JSON?) — the permission rules there cannot be read, so every tool is denied until it is fixed (mcp__flood02__add was not called)", "flood02", true},
		// The same without the call it refused.
		{"/tmp/x/settings.json:1:18: invalid JSON: unexpected end of file (truncated JSON?) — the permission rules there cannot be read, so every tool is denied until it is fixed (mcp__flood02__add was not called)", "flood02", false},
		// Not naming the server, or another one.
		{"mcpdeck serve offers no tool \"st01__echo\" now", "st01", false},
		{"tool call on st011: no answer within 20s (MCP_TOOL_TIMEOUT)", "st01", false},
		{"server st01x is disabled: you disabled it", "st01", false},
		{"the connection was lost", "st01", false},
		// Named, but no cause.
		{"server st01 failed", "st01", false},
		{"tool call on st01: EOF", "st01", false},
		// Raw errors showing through a sentence.
		{"tool call on st01: transport error: failed to send request: Post \"http://x\": EOF", "st01", false},
		{"tool call on st01: the request failed: read tcp 127.0.0.1:1->127.0.0.1:2: read: connection reset by peer", "st01", false},
		{"tool call on st01: something went wrong: context deadline exceeded", "st01", false},
		{"server st01 failed: the server sent %!v(MISSING)", "st01", false},
		{"", "st01", false},
	} {
		got, why := explained(tc.msg, tc.server)
		if got != tc.want {
			t.Errorf("explained(%q, %q) = %v (%s), want %v", tc.msg, tc.server, got, why, tc.want)
		}
	}
}
