package engine

import (
	"strings"
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
