package transports

import "golang.org/x/sys/windows"

// hasExited reports whether process pid has ended, by its process object
// (signalled once it exits), without touching the handle os/exec waits
// on: Close can then tell a child that died on its own (its exit code
// says why) from one it stopped, as on Linux.
func hasExited(pid int) bool {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false // cannot tell: Close reports it stopped the process
	}
	defer func() { _ = windows.CloseHandle(h) }()
	ev, err := windows.WaitForSingleObject(h, 0)
	return err == nil && ev == windows.WAIT_OBJECT_0
}

// exiting reports whether process pid has ended: Windows shows no
// process on its way out, so stdout's end waits a grace for the rest.
func exiting(pid int) bool { return hasExited(pid) }
