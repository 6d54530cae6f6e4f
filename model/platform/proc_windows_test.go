package platform

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// treeHelper names the part the test binary plays when started by
// TestKillEndsTheWholeTree: "spawn" starts a child at once and says its
// pid, "sleep" waits to be killed.
const treeHelper = "MCPDECK_PLATFORM_TREE_HELPER"

// runTreeHelper plays the part treeHelper names, if any, and exits.
func runTreeHelper() {
	switch os.Getenv(treeHelper) {
	case "spawn":
		self, _ := os.Executable()
		var child *exec.Cmd
		var err error
		// Wine 8, on a busy machine, now and then fails CreateProcess in
		// a job with ERROR_INTERNAL_ERROR; Windows does not. The test is
		// of ending the tree, not of Wine starting it: try again.
		for range 3 {
			child = exec.Command(self)
			child.Env = append(os.Environ(), treeHelper+"=sleep")
			if err = child.Start(); !errors.Is(err, windows.ERROR_INTERNAL_ERROR) {
				break
			}
		}
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("child", child.Process.Pid)
	case "sleep":
	default:
		return
	}
	for { // until killed
		time.Sleep(time.Hour)
	}
}

// TestKillEndsTheWholeTree: a program that starts a child the moment it
// runs is ended, child included, by Signal(Kill), and the child is gone
// when Signal returns: the program was in its job before it ran (a child
// started before the assignment escaped it), and Kill waits for the job
// to be empty (TerminateJobObject only starts ending its processes).
func TestKillEndsTheWholeTree(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		cmd := exec.Command(self)
		cmd.Env = append(os.Environ(), treeHelper+"=spawn")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		g, err := StartGroup(cmd)
		if err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "child ")))
		if err != nil {
			g.Signal(Kill)
			t.Fatalf("the program said %q, not its child's pid", line)
		}
		child, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION|windows.PROCESS_TERMINATE|windows.SYNCHRONIZE, false, uint32(pid))
		if err != nil {
			g.Signal(Kill)
			t.Fatal(err)
		}
		g.Signal(Kill)
		var code uint32
		if err := windows.GetExitCodeProcess(child, &code); err != nil || code == 259 { // STILL_ACTIVE
			t.Errorf("the child %d still runs after Kill (%v)", pid, err)
			_ = windows.TerminateProcess(child, 1)
		}
		_ = windows.CloseHandle(child)
		if _, err := g.Wait(); err != nil {
			t.Error(err)
		}
		g.Release()
	}
}
