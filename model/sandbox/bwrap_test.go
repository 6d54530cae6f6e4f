package sandbox

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// argPairs finds each occurrence of flag and returns what follows it.
func argPairs(args []string, flag string, n int) [][]string {
	var out [][]string
	for i, a := range args {
		if a == "--" {
			break
		}
		if a == flag && i+n < len(args) {
			out = append(out, args[i+1:i+1+n])
		}
	}
	return out
}

func TestBwrapArgs(t *testing.T) {
	p := Profile{
		Read:  []string{"/usr", "/tmp/t/home/proj"},
		Write: []string{"/tmp/t/out", "/tmp/sbx"},
		Hide:  []string{"/tmp/t/home/proj/.ssh"}, HideFiles: []string{"/etc/shadow"},
		TempDir: "/tmp/sbx", Home: "/tmp/t/home", RunsIn: "/tmp/t/home/proj",
	}
	args := bwrapArgs(p, []string{"/srv/bin/server", "--flag"}, nil)
	line := strings.Join(args, " ")
	for _, want := range []string{"--unshare-all", "--die-with-parent", "--cap-drop ALL", "--proc /proc", "--remount-ro /", "--chdir /tmp/t/home/proj"} {
		if !strings.Contains(line, want) {
			t.Errorf("lacks %q: %s", want, line)
		}
	}
	if slices.Contains(args, "--share-net") || slices.Contains(args, "--dev") {
		t.Errorf("shares the network or mounts a /dev with the terminal: %s", line)
	}
	if !strings.HasSuffix(line, "-- /srv/bin/server --flag") {
		t.Errorf("does not end with the program: %s", line)
	}
	// The private temporary directory is /tmp, mounted before what lies
	// under /tmp; the home is empty and mounted before the project in it.
	pos := func(s string) int { return strings.Index(line, s) }
	order := []string{"--bind /tmp/sbx /tmp ", "--tmpfs /tmp/t/home ", "--bind-try /tmp/t/out /tmp/t/out", "--ro-bind-try /tmp/t/home/proj /tmp/t/home/proj", "--tmpfs /tmp/t/home/proj/.ssh --remount-ro /tmp/t/home/proj/.ssh", "--ro-bind /dev/null /etc/shadow", "--remount-ro /tmp/t/home ", "--remount-ro / "}
	for i := 1; i < len(order); i++ {
		if pos(order[i-1]) < 0 || pos(order[i]) < 0 || pos(order[i-1]) > pos(order[i]) {
			t.Errorf("%q must come before %q: %s", order[i-1], order[i], line)
		}
	}
	if got := argPairs(args, "--dev-bind", 2); len(got) != 5 {
		t.Errorf("devices %v", got)
	}
}

// TestBwrapArgsRunsInUnderTmp: a server that runs in a directory under
// the host's /tmp that nothing opens gets that directory made in its
// private /tmp, or bubblewrap could not chdir there.
func TestBwrapArgsRunsInUnderTmp(t *testing.T) {
	line := strings.Join(bwrapArgs(Profile{TempDir: "/tmp/sbx", Home: "/root", RunsIn: "/tmp/t/home"}, []string{"/x"}, nil), " ")
	if !strings.Contains(line, "--dir /tmp/t/home") || !strings.Contains(line, "--chdir /tmp/t/home") {
		t.Errorf("%s", line)
	}
}

func TestBwrapArgsNetwork(t *testing.T) {
	all := bwrapArgs(Profile{Network: model.SandboxNetwork{All: true}}, []string{"/x"}, nil)
	if !slices.Contains(all, "--share-net") {
		t.Errorf("network all keeps no network: %v", all)
	}
	hosts := bwrapArgs(Profile{Network: model.SandboxNetwork{Hosts: []string{"a.com"}}, Self: "/self"}, []string{"/x", "y"}, shimNet(t))
	line := strings.Join(hosts, " ")
	if slices.Contains(hosts, "--share-net") || strings.Contains(line, "--bind") || !strings.HasSuffix(line, "-- /self shim 5 -- /x y") {
		t.Errorf("host list: %s", line)
	}
}

// shimNet is a host list's plumbing, its shim arguments "shim FD --".
func shimNet(t *testing.T) *Net {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	shim := func(fd int, argv []string) []string { return append([]string{"shim", strconv.Itoa(fd), "--"}, argv...) }
	return &Net{Control: f, ShimArgs: shim}
}

// TestBwrapArgsSocketFilter: the socket filter binds the server, and the
// shim before it, through bubblewrap's --seccomp 4; the shim's control
// descriptor comes next (5, or 4 without the filter); a definition that
// lists sockets runs without the filter, its sockets bound after the
// hiding that may hold them.
func TestBwrapArgsSocketFilter(t *testing.T) {
	plain := strings.Join(bwrapArgs(Profile{}, []string{"/x"}, nil), " ")
	if !strings.Contains(plain, "--seccomp 4 ") {
		t.Errorf("no filter by default: %s", plain)
	}
	hosts := strings.Join(bwrapArgs(Profile{Network: model.SandboxNetwork{Hosts: []string{"a.com"}}, Self: "/self"}, []string{"/x", "y"}, shimNet(t)), " ")
	if !strings.Contains(hosts, "--seccomp 4 ") || !strings.HasSuffix(hosts, "-- /self shim 5 -- /x y") {
		t.Errorf("host list: %s", hosts)
	}
	open := Profile{UnixSockets: true, Sockets: []string{"/home/u/.docker/run/docker.sock"}, Hide: []string{"/home/u/.docker"}}
	line := strings.Join(bwrapArgs(open, []string{"/x"}, nil), " ")
	if strings.Contains(line, "--seccomp") {
		t.Errorf("sockets listed, yet filtered: %s", line)
	}
	pos := func(s string) int { return strings.Index(line, s) }
	if a, b, c := pos("--tmpfs /home/u/.docker "), pos("--ro-bind-try /home/u/.docker/run/docker.sock /home/u/.docker/run/docker.sock"), pos("--remount-ro /home/u/.docker "); a < 0 || b < a || c < b {
		t.Errorf("the socket must be bound inside the hiding before it is made read-only: %s", line)
	}
	hostsOpen := strings.Join(bwrapArgs(Profile{UnixSockets: true, Network: model.SandboxNetwork{Hosts: []string{"a.com"}}, Self: "/self"}, []string{"/x"}, shimNet(t)), " ")
	if strings.Contains(hostsOpen, "--seccomp") || !strings.HasSuffix(hostsOpen, "-- /self shim 4 -- /x") {
		t.Errorf("sockets listed, behind the shim: %s", hostsOpen)
	}
}
