//go:build unix

package transports

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The shutdown schedule and its reach to the whole process group are unix
// behaviour: Windows has neither the signals nor process groups to check.

func TestStdioShutdownEscalation(t *testing.T) {
	c := open(t, stdioCfg("-ignore-signals", "-spawn-grandchild"), Options{})
	var pids struct{ PID, Grandchild int }
	if err := json.Unmarshal([]byte(mustCall(t, c, "pids", nil)), &pids); err != nil || pids.Grandchild == 0 {
		t.Fatalf("pids: %v %+v", err, pids)
	}
	if pids.PID != c.PID() {
		t.Fatalf("pid %d != %d", pids.PID, c.PID())
	}
	start := time.Now()
	if err := c.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	d := time.Since(start)
	// SIGINT and SIGTERM are ignored: the schedule runs to SIGKILL at 500 ms.
	if d < 500*time.Millisecond || d > 900*time.Millisecond {
		t.Fatalf("Close took %s, want 500-900ms", d)
	}
	tail := strings.Join(c.StderrTail(0), "\n")
	i, j := strings.Index(tail, "got signal interrupt"), strings.Index(tail, "got signal terminated")
	if i < 0 || j < i {
		t.Fatalf("signals not received in order SIGINT, SIGTERM:\n%s", tail)
	}
	if !errors.Is(c.Err(), ErrClosed) {
		t.Fatalf("Err = %v", c.Err())
	}
	if err := syscall.Kill(c.PID(), 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("server process still exists: %v", err)
	}
	waitGone(t, pids.Grandchild)
	if live := groupMembers(c.PID()); len(live) > 0 {
		t.Fatalf("process group %d still has live members %v", c.PID(), live)
	}
}

// groupMembers lists the live (non-zombie) processes of process group pgid.
func groupMembers(pgid int) []int {
	entries, _ := os.ReadDir("/proc")
	var live []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// fields after "(comm)": state ppid pgrp ...
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			live = append(live, pid)
		}
	}
	return live
}

// waitGone waits until pid no longer runs (gone or a zombie awaiting its
// reaper), failing after 5 s.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.NewTimer(5 * time.Second)
	defer deadline.Stop()
	for {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return
		}
		if f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:])); len(f) > 0 && f[0] == "Z" {
			return
		}
		select {
		case <-tick.C:
		case <-deadline.C:
			t.Fatalf("process %d still running", pid)
		}
	}
}

func TestStdioKilledBySignalNamesIt(t *testing.T) {
	c := open(t, stdioCfg(), Options{})
	if err := syscall.Kill(c.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("kill not detected")
	}
	var exit *ExitError
	if !errors.As(c.Err(), &exit) || exit.Signal != "SIGKILL" || exit.Code != -1 {
		t.Fatalf("Err = %#v, want an *ExitError with Signal SIGKILL and Code -1", c.Err())
	}
	if got := Humanize(c.Err()); !strings.HasPrefix(got, "the server process was killed by signal SIGKILL") {
		t.Fatalf("Humanize = %q", got)
	}
}
