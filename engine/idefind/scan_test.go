package idefind

import (
	"path/filepath"
	"testing"
)

// TestLockDir: CLAUDE_CONFIG_DIR's ide directory first, else HOME's
// .claude/ide, else nowhere to look.
func TestLockDir(t *testing.T) {
	env := func(m map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	home := filepath.FromSlash("/home/me")
	for _, tc := range []struct {
		env  map[string]string
		home string
		want string
	}{
		{map[string]string{ConfigDirVar: filepath.FromSlash("/cfg")}, home, filepath.FromSlash("/cfg/ide")},
		{map[string]string{ConfigDirVar: ""}, home, filepath.Join(home, ".claude", "ide")},
		{nil, home, filepath.Join(home, ".claude", "ide")},
		{nil, "", ""},
	} {
		if got := lockDir(env(tc.env), tc.home); got != tc.want {
			t.Errorf("lockDir(%v, %q) = %q, want %q", tc.env, tc.home, got, tc.want)
		}
	}
}

// TestOnTheWay: the lock directory and the directories above it are on
// the way to it; a sibling whose name starts alike is not.
func TestOnTheWay(t *testing.T) {
	dir := filepath.FromSlash("/home/me/.claude/ide")
	for path, want := range map[string]bool{
		dir:                                    true,
		filepath.FromSlash("/home/me/.claude"): true,
		filepath.FromSlash("/home/me"):         true,
		filepath.FromSlash("/home/me/.clau"):   false,
		filepath.FromSlash("/home/me/.claude/ide/x.lock"): false,
	} {
		if got := onTheWay(path, dir); got != want {
			t.Errorf("onTheWay(%q) = %v, want %v", path, got, want)
		}
	}
}
