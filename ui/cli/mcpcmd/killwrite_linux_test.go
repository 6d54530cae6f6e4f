//go:build linux

package mcpcmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestKillMidWriteLosesNothing: every other `mcpdeck mcp add` process is
// killed with SIGKILL while it holds the file's lock (inside the
// read-modify-write: reading, writing the temporary file, renaming),
// until ten such kills landed. After each, the file is whole and holds every server an
// add that finished reported, and the next writer is not held up by the
// dead one's lock.
func TestKillMidWriteLosesNothing(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	// A file of some size, so that a write takes a while.
	for i := range 100 {
		if _, err := config.AddServer(e.LoadOptions(), model.ScopeLocal, fmt.Sprintf("pad-%03d", i),
			model.ServerConfig{Command: "srv", Args: []string{strings.Repeat("x", 500)}}); err != nil {
			t.Fatal(err)
		}
	}
	file := e.ScopeFile("local")
	var acked []string
	midWrite := 0
	for round := 0; midWrite < 10; round++ {
		if round == 300 {
			t.Fatalf("in 300 adds only %d kills landed while the lock was held", midWrite)
		}
		name := fmt.Sprintf("k%03d", round)
		cmd := e.Command("mcp", "add", name, "--", "srv")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if round%2 == 0 && killWhileLocked(cmd.Process.Pid, file) {
			midWrite++
		}
		err := cmd.Wait()
		var exit *exec.ExitError
		switch {
		case err == nil:
			acked = append(acked, name)
		case errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL:
		default:
			t.Fatalf("mcp add %s: %v", name, err)
		}
		b, err := os.ReadFile(file)
		if err != nil || !json.Valid(b) {
			t.Fatalf("after round %d the file is not whole JSON: %v\n%s", round, err, b)
		}
	}
	e.OK("mcp", "add", "after", "--", "srv") // no lock left held by the dead
	servers, doc := e.List()
	if len(doc.Problems) > 0 {
		t.Errorf("problems: %+v", doc.Problems)
	}
	for _, name := range append(acked, "after", "pad-000", "pad-099") {
		if _, ok := servers[name]; !ok {
			t.Errorf("%s lost", name)
		}
	}
	t.Logf("%d kills landed mid-write; %d adds finished", midWrite, len(acked))
}

// killWhileLocked watches process pid until it holds file's lock or one of
// its temporary files open, and kills it then with SIGKILL; it reports
// whether it did (false: the process ended first).
func killWhileLocked(pid int, file string) bool {
	lock := file + ".lock"
	temp := filepath.Join(filepath.Dir(file), "."+filepath.Base(file)+".tmp-")
	fdDir := "/proc/" + strconv.Itoa(pid) + "/fd"
	for {
		fds, err := os.ReadDir(fdDir)
		if err != nil || len(fds) == 0 {
			return false // gone
		}
		if st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err != nil || strings.Contains(string(st), ") Z ") {
			return false // exited, not yet reaped
		}
		for _, fd := range fds {
			target, _ := os.Readlink(fdDir + "/" + fd.Name())
			if target == lock || strings.HasPrefix(target, temp) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				return true
			}
		}
	}
}
