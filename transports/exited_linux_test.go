package transports

import (
	"os/exec"
	"testing"
)

// TestExitingTellsAnEndingProcess: a process that exited (not yet reaped)
// is exiting, one that runs is not; stdout's end then waits for the exit
// or gives the grace.
func TestExitingTellsAnEndingProcess(t *testing.T) {
	running := exec.Command("sleep", "60")
	if err := running.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = running.Process.Kill()
		_ = running.Wait()
	}()
	if exiting(running.Process.Pid) {
		t.Error("a sleeping process was taken for an exiting one")
	}
	done := exec.Command("true")
	if err := done.Start(); err != nil {
		t.Fatal(err)
	}
	pid := done.Process.Pid
	defer func() { _ = done.Wait() }()
	for !hasExited(pid) { // a zombie until Wait: no reaping here
		if exiting(pid) {
			return // caught while exiting
		}
	}
	if !exiting(pid) {
		t.Error("an exited process, not yet reaped, was not taken for exiting")
	}
}
