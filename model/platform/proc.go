package platform

import (
	"errors"
	"os"
	"os/exec"
	"sync"

	"github.com/mcpdeck/mcpdeck/model/lock"
)

// Stop is how firmly Group.Signal asks a process group to end.
type Stop int

// The steps of ending a process group, gentlest first.
const (
	Interrupt Stop = iota // SIGINT; on Windows CTRL_BREAK_EVENT to the console group
	Terminate             // SIGTERM; on Windows CTRL_BREAK_EVENT as well
	Kill                  // SIGKILL to the whole group; on Windows the job is terminated
)

// Group is a started program together with every process it spawns: on
// Unix its own process group (on Linux also every descendant that left it,
// found by the tag it inherited: tree_linux.go), on Windows its own console
// process group in a kill-on-close job object. Ending the group ends them
// all, so a child of a script can neither outlive it nor hold its output
// pipes open, and a daemon it started (setsid, a double fork) goes too.
type Group struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	tree  processTree
	after []func() // run once the leader has exited (AfterExit)
}

// StartGroup starts cmd as the leader of a new process group. cmd.Path is
// started as it is: the caller has already found and judged it.
func StartGroup(cmd *exec.Cmd) (*Group, error) {
	setGroupAttr(cmd)
	tree := newProcessTree(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	tree.started(cmd.Process.Pid)
	return &Group{cmd: cmd, tree: tree}, nil
}

// Pid is the group leader's process id.
func (g *Group) Pid() int { return g.cmd.Process.Pid }

// Wait waits for the leader to exit and returns how it ended. An exit with
// a non-zero status is no error here (the state says so); an error means
// the wait itself failed.
func (g *Group) Wait() (*os.ProcessState, error) {
	err := g.cmd.Wait()
	var after []func()
	lock.With(&g.mu, func() { after, g.after = g.after, nil })
	for _, f := range after {
		f()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		err = nil
	}
	return g.cmd.ProcessState, err
}

// AfterExit has Wait run f once the leader has exited: what was made
// for this run (a sandbox's private temporary directory) goes with it.
func (g *Group) AfterExit(f func()) {
	lock.With(&g.mu, func() { g.after = append(g.after, f) })
}

// Release lets go of what holds the group (the Windows job, which ends
// whatever is still in it). Signal(Kill) after Release reaches the leader
// only.
func (g *Group) Release() {
	lock.With(&g.mu, func() { g.tree.release() })
}
