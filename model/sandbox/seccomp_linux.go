package sandbox

import (
	"encoding/binary"
	"fmt"
	"os"
	"runtime"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The offsets of struct seccomp_data's fields the filter reads: the
// system call's number, the processor architecture it was made for and
// the low 32 bits of its first and second arguments (both architectures
// the filter exists for are little-endian).
const (
	dataNr   = 0
	dataArch = 4
	dataArg0 = 16
	dataArg1 = 24
)

// x32Bit marks a system call of the x32 ABI on x86_64: same
// architecture, other numbers, so the filter refuses every one of them
// rather than let socket() arrive under a number it does not check.
const x32Bit = 0x40000000

// sockTypeMask keeps the socket type of socket()'s and socketpair()'s
// type argument, without SOCK_NONBLOCK and SOCK_CLOEXEC.
const sockTypeMask = 0xf

// auditArch is the architecture the kernel reports for this program's
// own system calls, and whether the filter exists for it.
func auditArch() (uint32, bool) {
	switch runtime.GOARCH {
	case "amd64":
		return unix.AUDIT_ARCH_X86_64, true
	case "arm64":
		return unix.AUDIT_ARCH_AARCH64, true
	}
	return 0, false
}

// socketFilter is the seccomp program every sandboxed server runs under
// unless its definition lists sockets, assembled with golang.org/x/net/bpf:
//   - a system call made for another architecture (a 32-bit program on
//     x86_64, whose socketcall() hides its arguments) kills the process,
//     as does none; an x32 one fails with ENOSYS;
//   - socket(AF_UNIX, ...) fails with EPERM: no new unix socket, so no
//     connect() to the host's sockets (an agent, D-Bus, Docker), by path
//     or in the abstract namespace;
//   - socketpair() makes only stream and seqpacket pairs, which runtimes
//     use for their children's pipes; a datagram pair could sendto() a
//     host's datagram socket (a journal, a notify socket) by path;
//   - io_uring (whose requests open and connect sockets without these
//     calls) fails with ENOSYS, so runtimes fall back to plain calls;
//     pidfd_getfd(), which copies a descriptor out of another process,
//     fails with EPERM;
//   - everything else is allowed.
func socketFilter() ([]bpf.Instruction, error) {
	arch, ok := auditArch()
	if !ok {
		return nil, ErrNoSocketFilter
	}
	return filterProgram(arch, runtime.GOARCH == "amd64", filterCalls{
		socket: unix.SYS_SOCKET, socketpair: unix.SYS_SOCKETPAIR, pidfdGetfd: unix.SYS_PIDFD_GETFD,
		ioURing: []uint32{unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER},
	}), nil
}

// filterCalls are the numbers of the system calls the filter looks at,
// on one architecture.
type filterCalls struct {
	socket, socketpair, pidfdGetfd uint32
	ioURing                        []uint32
}

// filterProgram lays out socketFilter's program for an architecture.
// Jumps are written to labels and resolved once the layout is known.
func filterProgram(arch uint32, x32 bool, c filterCalls) []bpf.Instruction {
	const (
		allow  = unix.SECCOMP_RET_ALLOW
		kill   = unix.SECCOMP_RET_KILL_PROCESS
		eperm  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
		enosys = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	)
	var prog []bpf.Instruction
	type jump struct {
		at    int
		label string
	}
	var jumps []jump
	labels := map[string]int{}
	// jeq jumps to label when A == val, else falls through; jge likewise.
	cond := func(op bpf.JumpTest, val uint32, label string) {
		jumps = append(jumps, jump{len(prog), label})
		prog = append(prog, bpf.JumpIf{Cond: op, Val: val})
	}
	here := func(label string) { labels[label] = len(prog) }
	ret := func(v uint32) { prog = append(prog, bpf.RetConstant{Val: v}) }

	prog = append(prog, bpf.LoadAbsolute{Off: dataArch, Size: 4})
	prog = append(prog, bpf.JumpIf{Cond: bpf.JumpEqual, Val: arch, SkipTrue: 1})
	ret(kill)
	prog = append(prog, bpf.LoadAbsolute{Off: dataNr, Size: 4})
	if x32 {
		cond(bpf.JumpGreaterOrEqual, x32Bit, "enosys")
	}
	cond(bpf.JumpEqual, c.socket, "socket")
	cond(bpf.JumpEqual, c.socketpair, "socketpair")
	cond(bpf.JumpEqual, c.pidfdGetfd, "eperm")
	for _, n := range c.ioURing {
		cond(bpf.JumpEqual, n, "enosys")
	}
	ret(allow)
	here("socket")
	prog = append(prog, bpf.LoadAbsolute{Off: dataArg0, Size: 4})
	cond(bpf.JumpEqual, unix.AF_UNIX, "eperm")
	ret(allow)
	here("socketpair")
	prog = append(prog, bpf.LoadAbsolute{Off: dataArg1, Size: 4}, bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: sockTypeMask})
	cond(bpf.JumpEqual, unix.SOCK_DGRAM, "eperm")
	ret(allow)
	here("eperm")
	ret(eperm)
	here("enosys")
	ret(enosys)
	for _, j := range jumps {
		ji := prog[j.at].(bpf.JumpIf)
		ji.SkipTrue = uint8(labels[j.label] - j.at - 1)
		prog[j.at] = ji
	}
	return prog
}

// filterBytes is the filter as the kernel (and bubblewrap's --seccomp)
// reads it: struct sock_filter entries in the machine's byte order.
func filterBytes() ([]byte, error) {
	raw, err := assembled()
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, 8*len(raw))
	for _, r := range raw {
		out = binary.NativeEndian.AppendUint16(out, r.Op)
		out = append(out, r.Jt, r.Jf)
		out = binary.NativeEndian.AppendUint32(out, r.K)
	}
	return out, nil
}

// assembled is socketFilter as raw instructions.
func assembled() ([]bpf.RawInstruction, error) {
	prog, err := socketFilter()
	if err != nil {
		return nil, err
	}
	raw, err := bpf.Assemble(prog)
	if err != nil {
		return nil, fmt.Errorf("assembling the socket filter: %w", err)
	}
	return raw, nil
}

// filterPipe is a pipe holding the filter, its writing end closed: what
// bubblewrap's --seccomp reads to its end.
func filterPipe() (*os.File, error) {
	b, err := filterBytes()
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("the socket filter: %w", err)
	}
	_, err = w.Write(b) // far below a pipe's buffer: never blocks
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = r.Close()
		return nil, fmt.Errorf("the socket filter: %w", err)
	}
	return r, nil
}
