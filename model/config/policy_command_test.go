package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestPolicyCommandIsTheProgram checks that serverCommand rules compare the
// program a command runs, not its spelling: a deny on npx cannot be dodged
// by /usr/bin/npx, NPX, npx.cmd or a symlink, and an allow on npx does not
// let a different file called npx through.
func TestPolicyCommandIsTheProgram(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses Unix execute bits and symlinks")
	}
	f := newFixture(t)
	bin := filepath.Join(f.home, "bin")
	npx := writeProgram(t, filepath.Join(bin, "npx"))
	node := writeProgram(t, filepath.Join(bin, "node"))
	writeProgram(t, filepath.Join(bin, "npx-tool"))
	fake := writeProgram(t, filepath.Join(f.proj, "npx"))
	writeProgram(t, filepath.Join(f.proj, "evil", "npx"))
	writeProgram(t, filepath.Join(f.home, "npx")) // "./npx" of a user server, which starts in home
	if err := os.Symlink(npx, filepath.Join(f.home, "tool")); err != nil {
		t.Fatal(err)
	}
	f.env["PATH"] = "relative/dir" + string(os.PathListSeparator) + bin
	stdio := func(cmd string, env map[string]string) map[string]any {
		m := map[string]any{"command": cmd, "args": []string{"-y", "pkg"}}
		if env != nil {
			m["env"] = env
		}
		return m
	}
	defs := map[string]map[string]any{
		"bare":        stdio("npx", nil),
		"absolute":    stdio(npx, nil),
		"usrbin":      stdio("/usr/bin/npx", nil),
		"upper":       stdio("NPX", nil),
		"windows-cmd": stdio("npx.cmd", nil),
		"windows-exe": stdio(`C:\Program Files\nodejs\npx.EXE`, nil),
		"symlink":     stdio("./tool", nil),
		"dotdot":      stdio(bin+"/../proj/evil/npx", nil),
		"repo-npx":    stdio("./npx", nil),
		"repo-abs":    stdio(fake, nil),
		"env-path":    stdio("npx", map[string]string{"PATH": f.proj}),
		"env-path-ok": stdio("npx", map[string]string{"PATH": bin}),
		"node":        stdio("node", nil),
		"node-abs":    stdio(node, nil),
		"npx-like":    stdio("npx-tool", nil),
	}
	b, err := json.Marshal(map[string]any{"mcpServers": defs})
	if err != nil {
		t.Fatal(err)
	}
	f.write(f.userFile(), string(b))
	for _, tc := range []struct {
		name, policy string
		allowed      map[string]bool
	}{
		{
			name:   "deny npx",
			policy: `{"deniedMcpServers": [{"serverCommand": ["npx", "*"]}]}`,
			allowed: map[string]bool{
				"bare": false, "absolute": false, "usrbin": false, "upper": false,
				"windows-cmd": false, "windows-exe": false, "symlink": false, "dotdot": false,
				"repo-npx": false, "repo-abs": false, "env-path": false, "env-path-ok": false,
				"node": true, "node-abs": true, "npx-like": true,
			},
		},
		{
			name:   "deny by absolute path",
			policy: `{"deniedMcpServers": [{"serverCommand": ["` + npx + `", "*"]}]}`,
			allowed: map[string]bool{
				"bare": false, "absolute": false, "symlink": false, "env-path-ok": false,
				"repo-npx": true, "node": true,
			},
		},
		{
			name:   "allow npx",
			policy: `{"allowedMcpServers": [{"serverCommand": ["npx", "*"]}]}`,
			allowed: map[string]bool{
				"bare": true, "absolute": true, "env-path-ok": true,
				"usrbin": false, "upper": false, "windows-cmd": false, "windows-exe": false,
				"dotdot": false, "repo-npx": false, "repo-abs": false, "env-path": false,
				"node": false, "npx-like": false,
			},
		},
		{
			name:   "allow a directory",
			policy: `{"allowedMcpServers": [{"serverCommand": ["` + bin + `/*", "*"]}]}`,
			allowed: map[string]bool{
				"bare": true, "absolute": true, "node": true, "node-abs": true, "env-path-ok": true,
				"dotdot": false, "repo-npx": false, "env-path": false, "usrbin": false,
			},
		},
		{
			name:    "deny wins over allow",
			policy:  `{"allowedMcpServers": [{"serverCommand": ["*"]}], "deniedMcpServers": [{"serverCommand": ["npx", "*"]}]}`,
			allowed: map[string]bool{"absolute": false, "node": true},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f.write(filepath.Join(f.managed, ManagedSettingsFile), tc.policy)
			r := f.load()
			for name, want := range tc.allowed {
				if s := mustServer(t, r, name); s.Policy.Allowed != want {
					t.Errorf("%s (%s): allowed = %v, want %v (%s)", name, s.Config.Command, s.Policy.Allowed, want, s.Policy.Rule)
				}
			}
		})
	}
}

// writeProgram creates an executable file at path.
func writeProgram(t *testing.T, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}
