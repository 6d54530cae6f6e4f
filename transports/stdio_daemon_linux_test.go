//go:build linux

package transports

import (
	"context"
	"encoding/json"
	"testing"
)

// TestStoppingAServerEndsItsDaemon: a server that left a daemon (a new
// session, its parent gone: out of the process group) takes it along when
// it is stopped.
func TestStoppingAServerEndsItsDaemon(t *testing.T) {
	c := open(t, stdioCfg("-daemonize"), Options{})
	var pids struct{ PID, Daemon int }
	if err := json.Unmarshal([]byte(mustCall(t, c, "pids", nil)), &pids); err != nil || pids.Daemon == 0 {
		t.Fatalf("pids: %v %+v", err, pids)
	}
	if live := groupMembers(c.PID()); len(live) == 0 || contains(live, pids.Daemon) {
		t.Fatalf("the daemon %d should run outside the server's group %v", pids.Daemon, live)
	}
	if err := c.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	waitGone(t, pids.Daemon)
}

func contains(pids []int, pid int) bool {
	for _, p := range pids {
		if p == pid {
			return true
		}
	}
	return false
}
