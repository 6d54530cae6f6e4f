package cli

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// updateScripts rewrites the expected files of the transcripts (a cmp
// against a file of the script) from what mcpdeck printed.
var updateScripts = flag.Bool("update-scripts", false, "rewrite testdata/script/*.txtar from mcpdeck's output")

// TestScripts runs the CLI's transcripts (testdata/script/*.txtar), in the
// manner of soft-serve's testscript/testdata: each is a run of commands
// and what mcpdeck answers, readable as documentation. Every script gets
// a machine of its own ($HOME, $XDG_CONFIG_HOME, a managed directory and
// a project under $HOME/proj, the working directory) and the real binary
// on PATH, so a definition can say `mcpdeck demo-server NAME`: the demo's
// stdio servers, no network.
//
// Commands beside testscript's own:
//
//	mcpdeck ARGS...   runs the binary; fails on a non-zero exit (! negates)
//	exitcode N        the last mcpdeck's exit code was N
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *updateScripts,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup:               scriptMachine,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"mcpdeck":  runMcpdeck,
			"exitcode": checkExitCode,
		},
	})
}

// scriptMachine gives a script its private machine and its PATH.
func scriptMachine(env *testscript.Env) error {
	home := filepath.Join(env.WorkDir, "home")
	proj := filepath.Join(home, "proj")
	for _, d := range []string{proj, filepath.Join(home, ".config"), filepath.Join(env.WorkDir, "managed")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	env.Setenv("HOME", home)
	env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	env.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	env.Setenv("MCPDECK_MANAGED_DIR", filepath.Join(env.WorkDir, "managed"))
	env.Setenv("PATH", filepath.Dir(clitest.Binary)+string(os.PathListSeparator)+os.Getenv("PATH"))
	env.Setenv("PROJ", proj)
	env.Cd = proj
	env.Values[exitCodeKey{}] = new(int)
	return nil
}

// exitCodeKey keeps the last mcpdeck's exit code in the script's values.
type exitCodeKey struct{}

// runMcpdeck runs the binary with args in the script's machine.
func runMcpdeck(ts *testscript.TestScript, neg bool, args []string) {
	err := ts.Exec(clitest.Binary, args...)
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		ts.Fatalf("running mcpdeck: %v", err)
	}
	*ts.Value(exitCodeKey{}).(*int) = code
	if neg != (code != 0) {
		if neg {
			ts.Fatalf("mcpdeck succeeded unexpectedly")
		}
		ts.Fatalf("mcpdeck exited %d", code)
	}
}

// checkExitCode fails unless the last mcpdeck exited with the code given.
func checkExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: exitcode N")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode %q: not a number", args[0])
	}
	if got := *ts.Value(exitCodeKey{}).(*int); (got == want) == neg {
		ts.Fatalf("mcpdeck exited %d, want %s%d", got, map[bool]string{true: "not ", false: ""}[neg], want)
	}
}
