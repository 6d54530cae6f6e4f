package sandbox

import (
	"encoding/binary"
	"errors"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// call is one system call as the filter sees it.
type call struct {
	arch       uint32
	nr         uint32
	arg0, arg1 uint32
}

// verdict runs the filter on c in x/net/bpf's machine, which reads
// words big-endian: the seccomp_data is laid out that way for it (the
// kernel reads the machine's order, which filterBytes writes).
func verdict(t *testing.T, prog []bpf.Instruction, c call) uint32 {
	t.Helper()
	vm, err := bpf.NewVM(prog)
	if err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 64)
	binary.BigEndian.PutUint32(data[dataNr:], c.nr)
	binary.BigEndian.PutUint32(data[dataArch:], c.arch)
	binary.BigEndian.PutUint32(data[dataArg0:], c.arg0)
	binary.BigEndian.PutUint32(data[dataArg1:], c.arg1)
	out, err := vm.Run(data)
	if err != nil {
		t.Fatal(err)
	}
	return uint32(out)
}

// TestSocketFilterDecides: on each architecture the filter exists for,
// socket(AF_UNIX) and a datagram socketpair fail with EPERM, io_uring
// with ENOSYS; socket(AF_INET), socket(AF_INET6) and a stream or
// seqpacket socketpair pass, flags and all; a call made for another
// architecture kills the process; an x32 call fails.
func TestSocketFilterDecides(t *testing.T) {
	const (
		allow  = unix.SECCOMP_RET_ALLOW
		kill   = unix.SECCOMP_RET_KILL_PROCESS
		eperm  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
		enosys = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	)
	for _, a := range []struct {
		name  string
		arch  uint32
		x32   bool
		calls filterCalls
		read  uint32 // a call nothing filters
	}{
		{"x86_64", unix.AUDIT_ARCH_X86_64, true, filterCalls{socket: 41, socketpair: 53, pidfdGetfd: 438, ioURing: []uint32{425, 426, 427}}, 0},
		{"aarch64", unix.AUDIT_ARCH_AARCH64, false, filterCalls{socket: 198, socketpair: 199, pidfdGetfd: 438, ioURing: []uint32{425, 426, 427}}, 63},
	} {
		prog := filterProgram(a.arch, a.x32, a.calls)
		c := a.calls
		for _, tc := range []struct {
			what string
			c    call
			want uint32
		}{
			{"socket(AF_UNIX)", call{a.arch, c.socket, unix.AF_UNIX, unix.SOCK_STREAM}, eperm},
			{"socket(AF_UNIX, SOCK_DGRAM|SOCK_CLOEXEC)", call{a.arch, c.socket, unix.AF_UNIX, unix.SOCK_DGRAM | unix.SOCK_CLOEXEC}, eperm},
			{"socket(AF_INET)", call{a.arch, c.socket, unix.AF_INET, unix.SOCK_STREAM}, allow},
			{"socket(AF_INET6)", call{a.arch, c.socket, unix.AF_INET6, unix.SOCK_DGRAM}, allow},
			{"socketpair(stream|nonblock|cloexec)", call{a.arch, c.socketpair, unix.AF_UNIX, unix.SOCK_STREAM | unix.SOCK_NONBLOCK | unix.SOCK_CLOEXEC}, allow},
			{"socketpair(seqpacket)", call{a.arch, c.socketpair, unix.AF_UNIX, unix.SOCK_SEQPACKET}, allow},
			{"socketpair(dgram|cloexec)", call{a.arch, c.socketpair, unix.AF_UNIX, unix.SOCK_DGRAM | unix.SOCK_CLOEXEC}, eperm},
			{"io_uring_setup", call{a.arch, c.ioURing[0], 8, 0}, enosys},
			{"io_uring_register", call{a.arch, c.ioURing[2], 0, 0}, enosys},
			{"pidfd_getfd", call{a.arch, c.pidfdGetfd, 3, 3}, eperm},
			{"read", call{a.arch, a.read, 0, 0}, allow},
			{"another architecture's socket()", call{unix.AUDIT_ARCH_I386, 359, unix.AF_UNIX, 1}, kill},
			{"another architecture's read()", call{unix.AUDIT_ARCH_I386, 3, 0, 0}, kill},
		} {
			if got := verdict(t, prog, tc.c); got != tc.want {
				t.Errorf("%s %s: %#x, want %#x", a.name, tc.what, got, tc.want)
			}
		}
		if a.x32 {
			if got := verdict(t, prog, call{a.arch, x32Bit | c.socket, unix.AF_UNIX, 1}); got != enosys {
				t.Errorf("x32 socket(): %#x", got)
			}
		}
	}
}

// TestFilterBytes: the filter bubblewrap reads is whole instructions in
// this machine's order, or this architecture's refusal.
func TestFilterBytes(t *testing.T) {
	b, err := filterBytes()
	if _, ok := auditArch(); !ok {
		if !errors.Is(err, ErrNoSocketFilter) {
			t.Fatalf("unfilterable architecture: %v", err)
		}
		return
	}
	if err != nil || len(b) == 0 || len(b)%8 != 0 {
		t.Fatalf("%d bytes, %v", len(b), err)
	}
	arch, _ := auditArch()
	if k := binary.NativeEndian.Uint32(b[8+4:]); k != arch { // the second instruction compares the architecture
		t.Errorf("architecture check %#x, want %#x", k, arch)
	}
}
