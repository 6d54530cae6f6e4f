// Package launchtest helps the tests of the packages that start programs
// (model/launch, transports, oauth, engine): servers loaded under a managed
// policy (config.Load is the only maker of a model.Policy, so the tests
// judge by exactly what a managed-settings.json says) and scripts that
// leave a mark when they run.
package launchtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// DenyAll is the managed policy under which no local program may run.
const DenyAll = `{"deniedMcpServers": [{"serverCommand": ["*"]}]}`

// DenyAllRule is how a refusal under DenyAll names its rule.
const DenyAllRule = `deniedMcpServers: serverCommand ["*"]`

// Load writes servers (name → definition) as the user's settings and
// policy as managed-settings.json ("" for none) into a temporary world,
// loads it with the process's own environment, and returns the result.
func Load(t testing.TB, policy string, servers map[string]any) *config.Resolved {
	t.Helper()
	root := t.TempDir()
	opts := config.LoadOptions{
		Cwd:        filepath.Join(root, "home", "proj"),
		Home:       filepath.Join(root, "home"),
		ConfigDir:  filepath.Join(root, "home", ".config", "mcpdeck"),
		ManagedDir: filepath.Join(root, "managed"),
	}
	for _, d := range []string{opts.Cwd, opts.ConfigDir, opts.ManagedDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(opts.ConfigDir, config.UserSettingsFile), raw)
	if policy != "" {
		write(t, filepath.Join(opts.ManagedDir, config.ManagedSettingsFile), []byte(policy))
	}
	res, err := config.Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Problems {
		t.Fatalf("config problem: %v", p)
	}
	return res
}

// Server loads one server named name (see Load) and returns it.
func Server(t testing.TB, policy, name string, def map[string]any) model.Server {
	t.Helper()
	res := Load(t, policy, map[string]any{name: def})
	srv, ok := res.Server(name)
	if !ok {
		t.Fatalf("server %s not loaded", name)
	}
	for _, p := range srv.Problems {
		t.Fatalf("server %s: %v", name, p)
	}
	return srv
}

func write(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Script writes an executable sh script at path (making its directory)
// and returns path. It skips the test on Windows.
func Script(t testing.TB, path, body string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("sh scripts")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// Marker is a script at path that leaves a mark when it runs, and the
// file it makes.
func Marker(t testing.TB, path string) (script, marker string) {
	t.Helper()
	marker = filepath.Join(t.TempDir(), "ran")
	return Script(t, path, ": > "+textsafe.QuoteArg(marker)), marker // a builtin: it needs no PATH
}

// Ran reports whether the marker file exists, that is whether its script
// (or the command line that touches it) ran.
func Ran(marker string) bool {
	_, err := os.Stat(marker)
	return err == nil
}
