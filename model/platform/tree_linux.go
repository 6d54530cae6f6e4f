//go:build linux

package platform

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// treeEnv names the variable that marks every process a group starts, and
// everything those start, with the group's tag. A descendant that left
// the process group (setsid, a double fork) still carries it, so ending
// the group finds it in /proc wherever it was reparented. A descendant
// that clears its environment and leaves the group escapes: the limit,
// stated in SECURITY.md.
const treeEnv = "MCPDECK_TREE"

// maxSweeps bounds how often ending a group looks again for members that
// forked while it was being ended.
const maxSweeps = 10

// processTree is the group's hold on its processes: its process group
// (Signal addresses it) and its tag, "PREFIX-RANDOM", where PREFIX names
// this mcpdeck process (treePrefix). Its fields are set before Start.
type processTree struct {
	tag   string
	since uint64 // the leader's start time: no member started before it
}

// newProcessTree tags cmd's environment for a new group.
func newProcessTree(cmd *exec.Cmd) processTree {
	var r [8]byte
	_, _ = rand.Read(r[:])
	tag := treePrefix() + "-" + hex.EncodeToString(r[:])
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	kept := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, treeEnv+"=") {
			kept = append(kept, kv)
		}
	}
	cmd.Env = append(kept, treeEnv+"="+tag)
	return processTree{tag: tag}
}

func (p *processTree) started(pid int) {
	if st, ok := readStat(pid); ok {
		p.since = st.start
	}
}

func (*processTree) release() {}

// signal, for SIGKILL, kills the group's members outside its process
// group (the caller signalled that): those carrying its tag, and the
// descendants of the leader and of those; it looks again until none is
// left (a member may have forked meanwhile), and reaps the members
// mcpdeck adopted as child subreaper. The gentler signals reach the
// process group only: stopping a server always ends with SIGKILL to what
// is left once it exited (its daemons), and a sweep of /proc for each
// step made stopping many servers at once slow on a busy machine.
func (p *processTree) signal(leader int, sig syscall.Signal) {
	if p.tag == "" || sig != syscall.SIGKILL {
		return
	}
	needle := []byte("\x00" + treeEnv + "=" + p.tag + "\x00")
	sweep(leader, p.since, needle, sig, true)
}

// EndStrays kills every process left carrying a tag of this mcpdeck
// process's groups: run as mcpdeck exits, after its servers were stopped,
// it ends what a stop could not reach in time.
func EndStrays() {
	if !hasChildren() {
		return // nothing was started, or everything ended: no scan of /proc
	}
	// No reaping: its leaders are children mcpdeck started (their
	// exec.Cmd waits for them), and mcpdeck is exiting.
	var since uint64
	if st, ok := readStat(os.Getpid()); ok {
		since = st.start
	}
	sweep(0, since, []byte("\x00"+treeEnv+"="+treePrefix()+"-"), syscall.SIGKILL, false)
}

// sweep sends sig to the tree of leader and of the processes started at
// or after since whose environment holds needle (findTree). A SIGKILL
// that reached a process outside the leader's group looks once more (the
// process may have forked meanwhile, its child caught between fork and
// exec) until a look finds none it had not killed, at most maxSweeps
// times; with reap it then waits for the killed members mcpdeck adopted.
// One look is the common case: a server without daemons leaves nothing
// outside its group, and a look reads little more than /proc/*/stat.
func sweep(leader int, since uint64, needle []byte, sig syscall.Signal, reap bool) {
	killed, reaping := map[int]bool{}, map[int]bool{}
	for range maxSweeps {
		fresh := false
		for _, m := range findTree(leader, since, func(env []byte) bool { return bytes.Contains(env, needle) }) {
			if killed[m.pid] {
				continue
			}
			killed[m.pid] = true
			if m.live {
				_ = syscall.Kill(m.pid, sig)
				fresh = fresh || !m.inGroup
			}
		}
		if sig != syscall.SIGKILL {
			return
		}
		// A member killed before its child was adopted by mcpdeck only
		// now has mcpdeck for a parent: look at each again.
		for pid := range killed {
			if reap && pid != leader && !reaping[pid] && reapAdopted(pid) {
				reaping[pid] = true
			}
		}
		if !fresh {
			return
		}
	}
}

// hasChildren reports whether this process has a child (as child
// subreaper, a group's stray is one, or descends from one); true when
// the kernel does not say.
func hasChildren() bool {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return true
	}
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
		if err != nil || len(bytes.TrimSpace(b)) > 0 {
			return true
		}
	}
	return false
}

// treePrefix names this mcpdeck process in its groups' tags: its pid and
// start time, so a later process given the same pid has another.
func treePrefix() string {
	self := os.Getpid()
	st, ok := readStat(self)
	if !ok {
		return strconv.Itoa(self)
	}
	return strconv.Itoa(self) + "." + strconv.FormatUint(st.start, 10)
}

// member is one process of a group's tree.
type member struct {
	pid     int
	live    bool // not a zombie
	inGroup bool // in the leader's process group, which the caller signalled itself
}

// reapAdopted waits for pid, and reports true, when it is mcpdeck's
// child: a member that mcpdeck adopted as child subreaper. It is never a
// child mcpdeck started itself (those carry their own group's tag, and
// the caller skips this group's leader), so its exit status is nobody
// else's to collect.
func reapAdopted(pid int) bool {
	if st, ok := readStat(pid); !ok || st.ppid != os.Getpid() {
		return false
	}
	go func() { _, _ = unix.Wait4(pid, nil, 0, nil) }()
	return true
}

// findTree lists the processes of a tree: those in the leader's process
// group (leader 0: none), those started at or after since whose initial
// environment tagged says is the tree's (an older process cannot be: its
// environment is read only for the others), and the descendants of all
// of these. Zombies are listed (live false) but their environment is
// gone.
func findTree(leader int, since uint64, tagged func(env []byte) bool) []member {
	self := os.Getpid()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	all := map[int]stat{}
	in := map[int]bool{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		st, ok := readStat(pid)
		if !ok {
			continue
		}
		all[pid] = st
		switch {
		case leader > 0 && (pid == leader || st.pgrp == leader):
			in[pid] = true
		case st.state != 'Z' && st.state != 'X' && st.start >= since:
			if env, err := os.ReadFile("/proc/" + e.Name() + "/environ"); err == nil && tagged(append([]byte{0}, env...)) {
				in[pid] = true
			}
		}
	}
	// Descendants: a process whose parent chain reaches a member.
	for changed := true; changed; {
		changed = false
		for pid, st := range all {
			if !in[pid] && in[st.ppid] {
				in[pid], changed = true, true
			}
		}
	}
	out := make([]member, 0, len(in))
	for pid := range in {
		st := all[pid]
		out = append(out, member{pid: pid, live: st.state != 'Z' && st.state != 'X', inGroup: leader > 0 && st.pgrp == leader})
	}
	return out
}

// stat is what findTree reads of /proc/PID/stat.
type stat struct {
	state      byte
	ppid, pgrp int
	start      uint64 // start time in clock ticks since boot
}

func readStat(pid int) (stat, bool) {
	var buf [1024]byte // a stat line is a few hundred bytes
	fd, err := unix.Open("/proc/"+strconv.Itoa(pid)+"/stat", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return stat{}, false
	}
	n, err := unix.Read(fd, buf[:])
	_ = unix.Close(fd)
	if err != nil || n <= 0 {
		return stat{}, false
	}
	b := buf[:n]
	// The command name may hold spaces and parentheses: fields follow the
	// last ')'. They are, from there: state ppid pgrp session tty_nr tpgid
	// flags minflt cminflt majflt cmajflt utime stime cutime cstime
	// priority nice num_threads itrealvalue starttime. Cut by hand: a
	// sweep reads every process's, and strings.Fields allocated 50 strings
	// for each.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return stat{}, false
	}
	var st stat
	field := 0
	for rest := b[i+1:]; field <= 19; field++ {
		rest = bytes.TrimLeft(rest, " ")
		end := bytes.IndexByte(rest, ' ')
		if end < 0 {
			end = len(rest)
		}
		f := rest[:end]
		rest = rest[end:]
		if len(f) == 0 {
			return stat{}, false
		}
		switch field {
		case 0:
			st.state = f[0]
		case 1, 2, 19:
			n, err := strconv.ParseUint(string(f), 10, 64)
			if err != nil {
				return stat{}, false
			}
			switch field {
			case 1:
				st.ppid = int(n)
			case 2:
				st.pgrp = int(n)
			default:
				st.start = n
			}
		}
	}
	return st, true
}
