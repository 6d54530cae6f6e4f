//go:build windows

package platform

import (
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// ntResumeProcess is ntdll's NtResumeProcess: os/exec closes the main
// thread's handle of the program it starts, so a program created suspended
// is resumed through its process handle, which only ntdll offers.
var ntResumeProcess = windows.NewLazySystemDLL("ntdll.dll").NewProc("NtResumeProcess")

// resumeProcess lets the suspended process h run.
func resumeProcess(h windows.Handle) error {
	if status, _, _ := ntResumeProcess.Call(uintptr(h)); status != 0 {
		return windows.NTStatus(status)
	}
	return nil
}

// jobEmptyBudget bounds awaitEmpty: ending a process takes milliseconds,
// and a stop must stay within the second mcpdeck gives it.
const jobEmptyBudget = 250 * time.Millisecond

// awaitEmpty waits, for at most jobEmptyBudget, until no process of job
// is still running. TerminateJobObject only starts ending them, and
// mcpdeck waits for the leader alone: under Wine, with the machine busy,
// a server's grandchild was still running when Close returned.
func awaitEmpty(job windows.Handle) {
	deadline := time.Now().Add(jobEmptyBudget)
	for wait := time.Millisecond; ; wait = min(2*wait, 20*time.Millisecond) {
		var acct jobAccounting
		err := windows.QueryInformationJobObject(job, windows.JobObjectBasicAccountingInformation,
			uintptr(unsafe.Pointer(&acct)), uint32(unsafe.Sizeof(acct)), nil)
		if err != nil || acct.ActiveProcesses == 0 || time.Now().After(deadline) {
			return
		}
		time.Sleep(wait)
	}
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION.
type jobAccounting struct {
	TotalUserTime, TotalKernelTime                     int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime int64
	TotalPageFaultCount, TotalProcesses                uint32
	ActiveProcesses, TotalTerminatedProcesses          uint32
}
