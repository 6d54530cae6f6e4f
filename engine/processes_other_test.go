//go:build !windows

package engine

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// processesOf lists live (non-zombie) processes running bin.
func processesOf(bin string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, d := range entries {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err != nil || !strings.HasPrefix(string(cmd), bin+"\x00") {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err == nil {
			if i := strings.LastIndexByte(string(stat), ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
				continue
			}
		}
		pids = append(pids, pid)
	}
	return pids
}

// survivorsOf lists the processes running bin that outlived a Close:
// here, every one still running, as SIGKILL ends a process at once.
func survivorsOf(bin string) []int { return processesOf(bin) }
