package clitest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// LinkArg stands for the symbolic link in RefusesLink's arguments.
const LinkArg = "LINK"

// RefusesLink runs mcpdeck with args, LinkArg replaced by a symbolic link
// to a file of the person's: the run must fail saying so, and leave the
// file as it was.
func RefusesLink(t *testing.T, e *Env, args ...string) {
	t.Helper()
	target := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	for i, a := range args {
		if a == LinkArg {
			args[i] = link
		}
	}
	if r := e.Run(args...); r.Code != 1 || !strings.Contains(r.Stderr, "symbolic link") {
		t.Errorf("writing through a symbolic link was not refused: %s", r)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("the link's target was written: %q", b)
	}
}
