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
	"time"

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

// A process in the middle of exec has, for a moment, no environment to
// read: a daemon a server starts as it is being stopped would then not be
// seen to carry the group's tag. Ending a group looks again while such a
// process of this user is there, unsureWait after the last look, at most
// maxUnsureLooks times: an exec takes microseconds, but on a busy machine
// its process may wait that long for a CPU.
const (
	maxUnsureLooks = 100
	unsureWait     = 2 * time.Millisecond
)

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
// A look that found a candidate in the middle of exec (findTree's unsure)
// is made again after unsureWait, at most maxUnsureLooks times.
// One look is the common case: a server without daemons leaves nothing
// outside its group, and a look reads little more than /proc/*/stat.
func sweep(leader int, since uint64, needle []byte, sig syscall.Signal, reap bool) {
	killed, reaping := map[int]bool{}, map[int]bool{}
	sweeps, unsureLooks := 0, 0
	for {
		fresh := false
		members, unsure := findTree(leader, since, func(env []byte) bool { return bytes.Contains(env, needle) })
		for _, m := range members {
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
		if unsure && unsureLooks < maxUnsureLooks {
			unsureLooks++
			time.Sleep(unsureWait) // for its exec to end
			continue
		}
		if sweeps++; !fresh || sweeps == maxSweeps {
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
// gone. unsure reports a process of this user, started at or after since,
// caught in the middle of exec (environ): it may be the tree's.
func findTree(leader int, since uint64, tagged func(env []byte) bool) (members []member, unsure bool) {
	self := os.Getpid()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false
	}
	all := map[int]stat{}
	in := map[int]bool{}
	buf := make([]byte, 64<<10)
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
		case st.state != 'Z' && st.state != 'X' && st.start >= since && st.flags&pfKthread == 0:
			env, execing := environ(pid, &buf)
			in[pid] = len(env) > 0 && tagged(append([]byte{0}, env...))
			unsure = unsure || execing
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
	members = make([]member, 0, len(in))
	for pid, ok := range in {
		if !ok {
			continue
		}
		st := all[pid]
		members = append(members, member{pid: pid, live: st.state != 'Z' && st.state != 'X', inGroup: leader > 0 && st.pgrp == leader})
	}
	return members, unsure
}

// pfKthread is the kernel's PF_KTHREAD process flag: a kernel thread,
// which has no environment and is nobody's daemon.
const pfKthread = 0x00200000

// environ reads pid's initial environment into buf (reused from one
// process to the next; grown when too small). A process in the middle of
// exec has none to read for a moment (its new memory holds none yet, or
// the read began in the memory exec dropped): then inExec, when the
// process runs as this user, and so may be a server's.
func environ(pid int, buf *[]byte) (env []byte, inExec bool) {
	path := "/proc/" + strconv.Itoa(pid) + "/environ"
	env, err := readEnviron(path, buf)
	if err == nil && len(env) > 0 {
		return env, false
	}
	if execing(pid) {
		return nil, true
	}
	// Its exec may have ended since the read: read again. Empty now,
	// the process really has no environment.
	env, _ = readEnviron(path, buf)
	return env, false
}

// maxEnviron bounds how much of one environment readEnviron reads; the
// tag, which comes last, is not seen in a larger one.
const maxEnviron = 4 << 20

// readEnviron reads path, a /proc/PID/environ, in one read. The kernel
// reads the whole environment in one go then, from one memory; a read
// in parts (os.ReadFile's first part is 512 bytes) can get its first
// part from the memory an exec is dropping and nothing after it, and so
// miss the tag. An environment that fills buf is read again whole into a
// larger one.
func readEnviron(path string, buf *[]byte) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	for {
		n, err := unix.Pread(fd, *buf, 0)
		if err != nil {
			return nil, err
		}
		if n < len(*buf) || len(*buf) >= maxEnviron {
			return (*buf)[:n], nil
		}
		*buf = make([]byte, 4*len(*buf))
	}
}

// execing reports whether pid, a live process of this user, is in the
// middle of exec: its new memory has no environment yet (the
// environment's end address reads 0). One of another user reads 0 as
// well; it is told apart by the owner of its /proc directory (the
// effective user), and could not be killed anyway.
func execing(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// Fields after the command name, counted from the state (0): the
	// environment's end address is the 48th.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) <= 48 || f[0] == "Z" || f[0] == "X" || f[48] != "0" {
		return false
	}
	var fi unix.Stat_t
	return unix.Stat("/proc/"+strconv.Itoa(pid), &fi) == nil && int(fi.Uid) == os.Geteuid()
}

// stat is what findTree reads of /proc/PID/stat.
type stat struct {
	state      byte
	ppid, pgrp int
	flags      uint64 // PF_* flags
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
	// last ')'. They are, from there (0): state ppid pgrp session tty_nr tpgid
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
		case 1, 2, 6, 19:
			n, err := strconv.ParseUint(string(f), 10, 64)
			if err != nil {
				return stat{}, false
			}
			switch field {
			case 1:
				st.ppid = int(n)
			case 2:
				st.pgrp = int(n)
			case 6:
				st.flags = n
			default:
				st.start = n
			}
		}
	}
	return st, true
}
