package clitest

import (
	"encoding/json"
	"net"
	"testing"
)

// EngServers is an --mcp-config value with demo servers served over stdio
// by the mcpdeck binary itself (`mcpdeck demo-server NAME`).
func EngServers(t *testing.T, extra map[string]any) string {
	t.Helper()
	servers := map[string]any{
		"calc":   map[string]any{"command": Binary, "args": []string{"demo-server", "calculator"}},
		"notes":  map[string]any{"command": Binary, "args": []string{"demo-server", "notes"}},
		"survey": map[string]any{"command": Binary, "args": []string{"demo-server", "survey"}},
	}
	for k, v := range extra {
		servers[k] = v
	}
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ClosedPort returns a local port nothing listens on.
func ClosedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}
