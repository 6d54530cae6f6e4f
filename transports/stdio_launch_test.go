package transports

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/launch"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/testdata/launchtest"
)

// hostileTree is a working tree holding bin/npx, a script that leaves a
// mark when it runs.
func hostileTree(t *testing.T) (tree, marker string) {
	t.Helper()
	tree = t.TempDir()
	_, marker = launchtest.Marker(t, filepath.Join(tree, "bin", "npx"))
	return tree, marker
}

// TestStdioStartsTheProgramPolicyAllowed: an allow rule for npx holds for
// the person's npx; with mcpdeck started inside the tree, a server whose
// env.PATH lists the tree's relative bin first still starts the person's
// npx (here the fault server), never the tree's.
func TestStdioStartsTheProgramPolicyAllowed(t *testing.T) {
	tree, marker := hostileTree(t)
	bin := t.TempDir()
	if err := os.Symlink(faultBin, filepath.Join(bin, "npx")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Chdir(tree)
	srv := launchtest.Server(t, `{"allowedMcpServers": [{"serverCommand": ["npx"]}]}`, "s", map[string]any{
		"command": "npx", "env": map[string]string{"PATH": "bin" + string(os.PathListSeparator) + bin},
	})
	if !srv.Policy.Allowed {
		t.Fatalf("policy: %+v", srv.Policy)
	}
	c := open(t, srv.Config, Options{Launcher: launch.For(srv)})
	if c.Init() == nil || launchtest.Ran(marker) {
		t.Fatalf("init %v; the tree's npx ran: %v", c.Init(), launchtest.Ran(marker))
	}
}

// TestStdioFindsTheProgramOnlyWhereItRuns: no fallback and no relative
// PATH entries — with mcpdeck started inside the tree, a server whose
// env.PATH holds only the tree's relative bin, or only a directory that
// does not exist, fails as not found and nothing runs (not the tree's
// npx, not mcpdeck's own sh).
func TestStdioFindsTheProgramOnlyWhereItRuns(t *testing.T) {
	tree, marker := hostileTree(t)
	t.Chdir(tree)
	for _, cfg := range []model.ServerConfig{
		{Command: "npx", Env: map[string]string{"PATH": "bin"}},
		{Command: "npx", Cwd: tree, Env: map[string]string{"PATH": "bin"}},
		{Command: "sh", Args: []string{"-c", ": > " + textsafe.QuoteArg(marker)}, Env: map[string]string{"PATH": "/nonexistent"}},
	} {
		_, err := NewFactory().Open(t.Context(), "s", cfg, Options{})
		if !errors.Is(err, platform.ErrNotFound) || Classify(err) != ClassTerminal {
			t.Errorf("%s with PATH %s: %v (%v)", cfg.Command, cfg.Env["PATH"], err, Classify(err))
		}
		if launchtest.Ran(marker) {
			t.Fatalf("%s with PATH %s ran", cfg.Command, cfg.Env["PATH"])
		}
	}
}

// TestStdioDeniedByPolicyDoesNotStart: under deniedMcpServers [["*"]] the
// launcher refuses the server's program, naming the rule.
func TestStdioDeniedByPolicyDoesNotStart(t *testing.T) {
	tree, marker := hostileTree(t)
	srv := launchtest.Server(t, launchtest.DenyAll, "s", map[string]any{"command": "./bin/npx", "cwd": tree})
	_, err := NewFactory().Open(t.Context(), "s", srv.Config, Options{Launcher: launch.For(srv)})
	want := filepath.Join(tree, "bin", "npx") + " not run: managed policy forbids it (" + launchtest.DenyAllRule + ")"
	if !errors.Is(err, launch.ErrBlocked) || Classify(err) != ClassTerminal || Humanize(err) != want {
		t.Fatalf("err %v, humanized %q", err, Humanize(err))
	}
	if launchtest.Ran(marker) {
		t.Fatal("the denied program ran")
	}
}
