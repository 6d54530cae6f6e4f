package cache

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestProtocolMemory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache", ProtocolMemoryFile)
	now := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	if m, err := ReadProtocols(path); err != nil || len(m) != 0 {
		t.Fatalf("missing file: %v, %v", m, err)
	}
	if err := RememberProtocol(path, "a", "2025-11-25", now); err != nil {
		t.Fatal(err)
	}
	if err := RememberProtocol(path, "b", "2026-07-28", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	m, err := ReadProtocols(path)
	if err != nil || RememberedVersion(m, "a", now) != "2025-11-25" || RememberedVersion(m, "b", now) != "2026-07-28" {
		t.Fatalf("memory %v, %v", m, err)
	}
	// The same version again keeps the first time, so the entry still expires
	// and the server is probed again after protocolMemoryTTL.
	if err := RememberProtocol(path, "a", "2025-11-25", now.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	m, _ = ReadProtocols(path)
	if !m["a"].At.Equal(now) {
		t.Fatalf("time moved to %v", m["a"].At)
	}
	later := now.Add(protocolMemoryTTL + 30*time.Minute)
	if v := RememberedVersion(m, "a", later); v != "" {
		t.Fatalf("expired entry still used: %q", v)
	}
	if err := RememberProtocol(path, "c", "2025-06-18", later); err != nil {
		t.Fatal(err)
	}
	m, _ = ReadProtocols(path)
	if _, ok := m["a"]; ok || len(m) != 2 {
		t.Fatalf("expired entry not dropped: %v", m)
	}
	if err := os.WriteFile(path, []byte("{oops"), 0o600); err != nil {
		t.Fatal(err)
	}
	if m, err := ReadProtocols(path); err == nil || len(m) != 0 {
		t.Fatalf("malformed: %v, %v", m, err)
	}
	if err := RememberProtocol(path, "d", "2025-11-25", now); err != nil {
		t.Fatal(err)
	}
	if m, err := ReadProtocols(path); err != nil || RememberedVersion(m, "d", now) != "2025-11-25" {
		t.Fatalf("malformed memory not replaced: %v, %v", m, err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
}
