package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// runEnv marks every process of a run: mcpdeck is started with
// runEnv=ID, and every stdio server's definition sets it too (and
// serverEnv=NAME), so whatever they start inherits it unless it clears
// its environment. Processes are found by it in /proc, never by name.
const (
	runEnv    = "SOAK_RUN"
	serverEnv = "SOAK_SERVER"
)

// proc is one process found in /proc.
type proc struct {
	pid, ppid, pgid, sid int
	start                uint64 // start time (clock ticks after boot): with pid, who it is
	state                string // R, S, D, T (stopped), Z (zombie)…
	cmdline              string
	server               string // its serverEnv, "" if none
}

func (p proc) String() string {
	s := fmt.Sprintf("pid %d (ppid %d, pgid %d, sid %d, state %s) %s", p.pid, p.ppid, p.pgid, p.sid, p.state, p.cmdline)
	if p.server != "" {
		s += " [server " + p.server + "]"
	}
	return s
}

// marked lists the live processes (zombies left out: they hold no
// resources and their parent reaps them) whose environment has
// runEnv=id.
func marked(id string) []proc {
	want := []byte(runEnv + "=" + id)
	var out []proc
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue // gone, or not ours
		}
		var server string
		found := false
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				found = true
			}
			if v, ok := bytes.CutPrefix(kv, []byte(serverEnv+"=")); ok {
				server = string(v)
			}
		}
		if !found {
			continue
		}
		p, ok := stat(pid)
		if !ok || p.state == "Z" {
			continue
		}
		p.server = server
		out = append(out, p)
	}
	return out
}

// stat reads a process's state, parent, group, session, start time and
// command line.
func stat(pid int) (proc, bool) {
	p, ok := statLine(pid)
	if !ok {
		return p, false
	}
	if cl, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil {
		p.cmdline = strings.TrimSpace(strings.ReplaceAll(string(cl), "\x00", " "))
		if len(p.cmdline) > 200 {
			p.cmdline = p.cmdline[:200] + "…"
		}
	}
	return p, true
}

// statLine reads /proc/PID/stat alone.
func statLine(pid int) (proc, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return proc{}, false
	}
	s := string(b)
	// The command (field 2) may hold spaces and parentheses: the fields
	// after it start past the last ")", field 3 first.
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 > len(s) {
		return proc{}, false
	}
	f := strings.Fields(s[i+2:])
	if len(f) < 20 {
		return proc{}, false
	}
	p := proc{pid: pid, state: f[0]}
	p.ppid, _ = strconv.Atoi(f[1])
	p.pgid, _ = strconv.Atoi(f[2])
	p.sid, _ = strconv.Atoi(f[3])
	p.start, _ = strconv.ParseUint(f[19], 10, 64) // field 22
	return p, true
}

// lineage remembers every process seen below serve, by pid and start
// time, so that one that left its tree (daemonized: reparented to init)
// and cleared its environment (so the marker no longer finds it) is
// still known at the end.
type lineage struct {
	mu   sync.Mutex
	seen map[int]proc
}

// watch looks at serve's tree every interval until ctx ends.
func (l *lineage) watch(ctx context.Context, root int, interval time.Duration) {
	for {
		l.scan(root)
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
	}
}

// scan records root's descendants as they are now.
func (l *lineage) scan(root int) {
	children := map[int][]proc{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := statLine(pid); ok {
			children[p.ppid] = append(children[p.ppid], p)
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen == nil {
		l.seen = map[int]proc{}
	}
	queue := []int{root}
	for len(queue) > 0 {
		for _, c := range children[queue[0]] {
			if old, ok := l.seen[c.pid]; !ok || old.start != c.start {
				if full, ok := stat(c.pid); ok {
					c = full
				}
				l.seen[c.pid] = c
			}
			queue = append(queue, c.pid)
		}
		queue = queue[1:]
	}
}

// alive are the processes seen below serve that still run (zombies left
// out), the same processes by their start time.
func (l *lineage) alive() []proc {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []proc
	for pid, was := range l.seen {
		if now, ok := statLine(pid); ok && now.start == was.start && now.state != "Z" {
			now.cmdline, now.server = was.cmdline, was.server
			out = append(out, now)
		}
	}
	return out
}

// rssMB is a process's resident memory in MB (VmRSS of /proc/PID/status).
func rssMB(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
			if err != nil {
				return 0, fmt.Errorf("VmRSS %q: %w", v, err)
			}
			return kb / 1024, nil
		}
	}
	return 0, fmt.Errorf("no VmRSS for pid %d", pid)
}

// serverProcess is the process mcpdeck (pid parent) runs for a stdio
// server: its direct child carrying serverEnv=name.
func serverProcess(id string, parent int, name string) (proc, bool) {
	for _, p := range marked(id) {
		if p.ppid == parent && p.server == name {
			return p, true
		}
	}
	return proc{}, false
}
