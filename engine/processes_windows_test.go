package engine

import (
	"strings"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// processesOf lists live processes running bin: every process Toolhelp
// lists whose image is bin (the executable's full path, compared as
// Windows compares names: case aside).
func processesOf(bin string) []int {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return nil
	}
	defer windows.CloseHandle(snap)
	var pids []int
	var e windows.ProcessEntry32
	e.Size = uint32(unsafe.Sizeof(e))
	for err = windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		if img := image(e.ProcessID); img != "" && strings.EqualFold(img, bin) {
			pids = append(pids, int(e.ProcessID))
		}
	}
	return pids
}

// image is the full path of the program live process pid runs, "" when
// it has ended or cannot be asked.
func image(pid uint32) string {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return ""
	}
	defer windows.CloseHandle(h)
	const stillActive = 259
	var code uint32
	if windows.GetExitCodeProcess(h, &code) != nil || code != stillActive {
		return ""
	}
	buf := make([]uint16, windows.MAX_LONG_PATH)
	n := uint32(len(buf))
	if windows.QueryFullProcessImageName(h, 0, &buf[0], &n) != nil {
		return ""
	}
	return windows.UTF16ToString(buf[:n])
}

// survivorsOf lists the processes running bin that outlived a Close: those
// still running two seconds later. Windows ends a job's processes in its
// own time after TerminateJobObject, and Close waits for that only so long
// (platform's awaitEmpty); a process outside the job never ends.
func survivorsOf(bin string) []int {
	deadline := time.Now().Add(2 * time.Second)
	var left []int
	for _, pid := range processesOf(bin) {
		h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
		if err != nil {
			continue // gone already
		}
		ms := uint32(max(0, time.Until(deadline).Milliseconds()))
		if ev, err := windows.WaitForSingleObject(h, ms); err != nil || ev != windows.WAIT_OBJECT_0 {
			left = append(left, pid)
		}
		_ = windows.CloseHandle(h)
	}
	return left
}
