//go:build linux

package platform

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// startDaemonizing starts as a group a script that leaves a daemon behind
// (setsid, and its parent exits at once, as a double fork does), then
// sleeps. Every process holds watchW (fd 3). It returns the group and the
// daemon's pid once the daemon's parent has exited.
func startDaemonizing(t *testing.T, watchW *os.File) (*Group, int) {
	t.Helper()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Fatal("these tests need setsid (util-linux)")
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer outR.Close()
	cmd := shellCmd(`setsid sh -c 'sleep 60 & echo $!'; echo ready; exec sleep 60`)
	cmd.ExtraFiles = []*os.File{watchW}
	cmd.Stdout = outW
	g, err := StartGroup(cmd)
	_ = outW.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		g.Signal(Kill)
		_, _ = g.Wait()
	})
	lines := bufio.NewScanner(outR)
	if !lines.Scan() {
		t.Fatal("the script printed no pid")
	}
	daemon, err := strconv.Atoi(strings.TrimSpace(lines.Text()))
	if err != nil {
		t.Fatalf("daemon pid %q: %v", lines.Text(), err)
	}
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatal("the script did not say ready")
	}
	if st, ok := readStat(daemon); !ok || st.pgrp == g.Pid() {
		t.Fatalf("the daemon %d should run outside the group: %+v %v", daemon, st, ok)
	}
	return g, daemon
}

// TestEndingAGroupEndsItsDaemon: a daemon the group's program left (its
// own session, its parent gone, so out of the process group's reach) is
// ended with the group.
func TestEndingAGroupEndsItsDaemon(t *testing.T) {
	watchR, watchW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer watchR.Close()
	g, _ := startDaemonizing(t, watchW)
	_ = watchW.Close()
	g.Signal(Kill)
	_, _ = g.Wait()
	awaitTreeGone(t, watchR, "the daemon outlived its group")
}

// TestDaemonCaughtInExecIsEnded: a daemon is often still in the middle of
// exec when its group is ended at once (the script's parent has exited,
// the daemon's sleep not yet begun). A process in exec has no environment
// to read for a moment, so its tag went unseen: 2 ends of 300 left the
// daemon running on a busy machine. 100 ends in a row catch that about
// half the time.
func TestDaemonCaughtInExecIsEnded(t *testing.T) {
	for range 100 {
		watchR, watchW, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		g, _ := startDaemonizing(t, watchW)
		_ = watchW.Close()
		g.Signal(Kill)
		_, _ = g.Wait()
		awaitTreeGone(t, watchR, "the daemon outlived its group")
		_ = watchR.Close()
	}
}

// TestAdoptedDaemonIsReaped: as child subreaper, mcpdeck adopts the
// daemon when its parent exits; ending the group ends it and reaps it, so
// no zombie is left either.
func TestAdoptedDaemonIsReaped(t *testing.T) {
	if err := BecomeSubreaper(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0) })
	watchR, watchW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer watchR.Close()
	g, daemon := startDaemonizing(t, watchW)
	_ = watchW.Close()
	if st, _ := readStat(daemon); st.ppid != os.Getpid() {
		t.Fatalf("the daemon's parent is %d, want this process %d (subreaper)", st.ppid, os.Getpid())
	}
	g.Signal(Kill)
	_, _ = g.Wait()
	awaitTreeGone(t, watchR, "the daemon outlived its group")
	awaitReaped(t, daemon)
}

// TestEndStraysEndsWhatIsLeft: as mcpdeck exits, a daemon of a group that
// was never stopped is ended.
func TestEndStraysEndsWhatIsLeft(t *testing.T) {
	watchR, watchW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer watchR.Close()
	g, _ := startDaemonizing(t, watchW)
	_ = watchW.Close()
	EndStrays()
	awaitTreeGone(t, watchR, "EndStrays left the daemon (or the leader) running")
	_, _ = g.Wait()
}

// awaitTreeGone waits until every holder of the pipe watch reads from has
// exited (EOF), failing after 10 s with the holders left (the processes
// sleep for 60), which it then kills.
func awaitTreeGone(t *testing.T, watch *os.File, failure string) {
	t.Helper()
	gone := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, watch)
		gone <- err
	}()
	timer := time.NewTimer(10 * time.Second)
	defer timer.Stop()
	select {
	case err := <-gone:
		if err != nil {
			t.Fatal(err)
		}
	case <-timer.C:
		left := pipeHolders(watch)
		for _, h := range left {
			_ = unix.Kill(h.pid, unix.SIGKILL)
		}
		<-gone
		t.Fatalf("%s: %+v", failure, left)
	}
}

// holder is a process holding the write end of a watched pipe.
type holder struct {
	pid    int
	stat   string
	tagged string
}

// pipeHolders lists the processes with a descriptor on watch's pipe.
func pipeHolders(watch *os.File) []holder {
	var st unix.Stat_t
	if unix.Fstat(int(watch.Fd()), &st) != nil {
		return nil
	}
	want := "pipe:[" + strconv.FormatUint(st.Ino, 10) + "]"
	var out []holder
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		fds, _ := os.ReadDir("/proc/" + p.Name() + "/fd")
		for _, fd := range fds {
			if l, _ := os.Readlink("/proc/" + p.Name() + "/fd/" + fd.Name()); l == want {
				h := holder{pid: pid}
				b, _ := os.ReadFile("/proc/" + p.Name() + "/stat")
				h.stat = strings.TrimSpace(string(b))
				env, _ := os.ReadFile("/proc/" + p.Name() + "/environ")
				for _, kv := range strings.Split(string(env), "\x00") {
					if strings.HasPrefix(kv, treeEnv+"=") {
						h.tagged = kv
					}
				}
				out = append(out, h)
				break
			}
		}
	}
	return out
}

// awaitReaped waits until pid is gone from /proc (reaped, not a zombie),
// failing after 10 s.
func awaitReaped(t *testing.T, pid int) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for {
		st, ok := readStat(pid)
		if !ok {
			return
		}
		select {
		case <-tick.C:
		case <-deadline.C:
			t.Fatalf("process %d is still there (state %c, parent %d)", pid, st.state, st.ppid)
		}
	}
}
