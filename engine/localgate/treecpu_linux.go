//go:build linux

package localgate

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// tick is the unit of utime and stime in /proc/PID/stat (USER_HZ, 100 on
// every Linux).
const tick = 10 * time.Millisecond

// maxTree bounds how many processes of one tree TreeCPU reads.
const maxTree = 64

// TreeCPU is the CPU time (user and system) that process pid and its
// descendants have used, from /proc: each process's stat, and its children
// from its main thread's children list (the thread that forks in a shell,
// Node or Python; a child forked by another thread is not seen). ok is
// false when pid is gone.
func TreeCPU(pid int) (used time.Duration, ok bool) {
	queue := []int{pid}
	for i := 0; i < len(queue) && i < maxTree; i++ {
		p := strconv.Itoa(queue[i])
		t, ok := statCPU(p)
		if !ok {
			if i == 0 {
				return 0, false
			}
			continue // a child that just ended
		}
		used += t
		kids, _ := os.ReadFile("/proc/" + p + "/task/" + p + "/children")
		for _, f := range bytes.Fields(kids) {
			if n, err := strconv.Atoi(string(f)); err == nil {
				queue = append(queue, n)
			}
		}
	}
	return used, true
}

// statCPU reads utime and stime from /proc/PID/stat; the fields after the
// command name, which is in parentheses and may hold anything, are
// state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt
// utime stime.
func statCPU(pid string) (time.Duration, bool) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 13 {
		return 0, false
	}
	u, err1 := strconv.ParseUint(string(f[11]), 10, 64)
	s, err2 := strconv.ParseUint(string(f[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(u+s) * tick, true
}
