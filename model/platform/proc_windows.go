//go:build windows

package platform

import (
	"os"
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/mcpdeck/mcpdeck/model/lock"
)

// setGroupAttr starts the program in a new console process group, the only
// group Windows can address: CTRL_BREAK_EVENT then reaches it and not
// mcpdeck. It starts suspended: processTree.started lets it run once it is in
// its job.
func setGroupAttr(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= syscall.CREATE_NEW_PROCESS_GROUP | windows.CREATE_SUSPENDED
}

// processTree is the program's process tree: a job object it was put in
// before it ran, so ending the job ends every process it spawned (an npx
// server's node child too), and closing the last handle to it
// (KILL_ON_JOB_CLOSE) does the same if mcpdeck itself goes away. Zero job
// means the job could not be made and only the leader itself is ended.
type processTree struct{ job windows.Handle }

func newProcessTree(*exec.Cmd) processTree { return processTree{} }

// started puts process pid, created suspended (setGroupAttr), in a new
// kill-on-close job, then lets it run, job or not. Had it run first, a
// child it started before the assignment would escape the job and outlive
// mcpdeck: under Wine, with the machine busy, a server's grandchild did.
// A process that cannot even be opened stays suspended until Signal(Kill)
// ends it; one's own new child always can be.
func (p *processTree) started(pid int) {
	proc, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE|windows.PROCESS_SUSPEND_RESUME, false, uint32(pid))
	if err != nil {
		return
	}
	defer func() {
		_ = resumeProcess(proc)
		_ = windows.CloseHandle(proc)
	}()
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return
	}
	if err := windows.AssignProcessToJobObject(job, proc); err != nil {
		_ = windows.CloseHandle(job)
		return
	}
	p.job = job
}

// release closes the job, ending whatever is still in it.
func (p *processTree) release() {
	if p.job != 0 {
		_ = windows.CloseHandle(p.job)
		p.job = 0
	}
}

// Signal maps the Unix steps onto Windows: Interrupt and Terminate send
// CTRL_BREAK_EVENT to the console group (the graceful attempt; it fails
// harmlessly when there is no shared console), Kill terminates the job
// (the whole tree) and waits a moment for it to be empty (awaitEmpty), or
// the leader alone without a job. Errors mean it is already gone.
func (g *Group) Signal(s Stop) {
	if s != Kill {
		_ = windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(g.Pid()))
		return
	}
	lock.With(&g.mu, func() {
		if g.tree.job != 0 {
			_ = windows.TerminateJobObject(g.tree.job, 1)
			awaitEmpty(g.tree.job)
			return
		}
		_ = g.cmd.Process.Kill()
	})
}

// ExitSignal is always "": Windows processes end with an exit code only
// (a terminated program reports code 1).
func ExitSignal(*os.ProcessState) string { return "" }
