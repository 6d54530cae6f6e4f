package sandbox

import (
	"cmp"
	"os"
	"slices"
	"strconv"
	"strings"
)

// insideTemp is where the private temporary directory appears inside
// the sandbox.
const insideTemp = "/tmp"

// Net is the network plumbing of a sandbox whose network is a host list:
// mcpdeck's proxy, which allows only those hosts.
type Net struct {
	// Control is the shim's end of the egress broker's control socket
	// (Linux): it goes into the sandbox as a descriptor, through which the
	// shim gets each connection to the proxy without making a unix socket
	// (the socket filter binds the shim too). The launcher closes its copy
	// once the sandbox started.
	Control *os.File
	// Addr is the proxy's loopback address, host:port (macOS: the only
	// place the profile lets the server connect).
	Addr string
	// ShimArgs, given the control descriptor's number inside the sandbox
	// and the server's argv, are the arguments (after mcpdeck's own
	// executable) that run the server behind a loopback listener
	// forwarding to the proxy (Linux).
	ShimArgs func(controlFD int, argv []string) []string
	// ShimEnv are variables only the shim reads (the proxy's credential),
	// added to the sandbox's environment when the shim runs; the shim
	// takes them out before the server starts.
	ShimEnv []string
	// Env, given an environment and the proxy's address, points it at
	// the proxy, credential included (macOS, where no shim runs).
	Env func(env []string, addr string) []string
}

// bwrapArgs are bubblewrap's arguments that run argv under p: every
// namespace unshared (the network too unless p allows all), an empty
// root the listed paths are bound into (read-only or writable), closed
// paths masked, a private /tmp, a /dev without the terminal, no
// capabilities, killed with mcpdeck, and under the socket filter
// (socketFilter, read by --seccomp from the descriptor after --info-fd's)
// unless p lists sockets; the shim, behind which a server with a host
// list runs, is under it too and gets its connections to the proxy on
// the next descriptor.
func bwrapArgs(p Profile, argv []string, net *Net) []string {
	a := []string{"--unshare-all"}
	if p.Network.All {
		a = append(a, "--share-net")
	}
	a = append(a, "--die-with-parent", "--cap-drop", "ALL")
	var empties []string // made read-only once everything is mounted in them
	for _, m := range mounts(p) {
		switch {
		case m.empty:
			a = append(a, "--tmpfs", m.dst)
			empties = append(empties, m.dst)
		case m.dst == insideTemp && m.src == p.TempDir:
			a = append(a, "--bind", m.src, m.dst)
		case m.write && m.must:
			a = append(a, "--bind", m.src, m.dst)
		case m.write: // a listed path that does not exist is skipped, not fatal
			a = append(a, "--bind-try", m.src, m.dst)
		case m.must: // what runs later: gone since Resolve, the start fails
			a = append(a, "--ro-bind", m.src, m.dst)
		default:
			a = append(a, "--ro-bind-try", m.src, m.dst)
		}
	}
	for _, h := range p.Hide {
		a = append(a, "--tmpfs", h)
	}
	for _, s := range p.Sockets { // after the hiding, which may hold one
		a = append(a, "--ro-bind-try", s, s)
	}
	for _, h := range p.Hide {
		a = append(a, "--remount-ro", h)
	}
	for _, h := range p.HideFiles {
		a = append(a, "--ro-bind", "/dev/null", h)
	}
	a = append(a, "--proc", "/proc", "--tmpfs", "/dev")
	for _, d := range []string{"null", "zero", "full", "random", "urandom"} {
		a = append(a, "--dev-bind", "/dev/"+d, "/dev/"+d)
	}
	a = append(a, "--symlink", "/proc/self/fd", "/dev/fd",
		"--symlink", "/proc/self/fd/0", "/dev/stdin",
		"--symlink", "/proc/self/fd/1", "/dev/stdout",
		"--symlink", "/proc/self/fd/2", "/dev/stderr",
		"--tmpfs", "/dev/shm")
	dsts := mountDsts(p)
	if p.RunsIn != "" && !under(p.RunsIn, dsts) {
		a = append(a, "--dir", p.RunsIn)
	}
	for _, l := range links(p, dsts) {
		a = append(a, "--symlink", l.To, l.At)
	}
	fd := 4 // the next descriptor after --info-fd's (Wrapped.ExtraFiles)
	if !p.UnixSockets {
		a = append(a, "--seccomp", strconv.Itoa(fd))
		fd++
	}
	if shimmed(p, net) {
		argv = append([]string{p.Self}, net.ShimArgs(fd, argv)...)
	}
	for _, e := range empties {
		a = append(a, "--remount-ro", e)
	}
	a = append(a, "--remount-ro", "/")
	if p.RunsIn != "" {
		a = append(a, "--chdir", p.RunsIn)
	}
	a = append(a, "--")
	return append(a, argv...)
}

// shimmed reports whether the server runs behind the network shim (a
// host list on Linux).
func shimmed(p Profile, net *Net) bool {
	return net != nil && net.Control != nil && net.ShimArgs != nil && p.Self != ""
}

// mount is one path of the sandbox: src bound at dst, or an empty
// read-only directory; must is a path that has to be there (what runs
// later, held read-only, and the directories pinned around it).
type mount struct {
	src, dst           string
	write, empty, must bool
}

// links are p's links that the sandbox must make itself: those whose
// place no host path bound in holds (there the host's own link is seen),
// nor another link made before.
func links(p Profile, dsts []string) []Link {
	var out []Link
	var at []string
	for _, l := range p.Links {
		if l.At == insideTemp || under(l.At, dsts) || under(l.At, at) || slices.ContainsFunc(dsts, func(d string) bool { return within(d, l.At) }) {
			continue
		}
		out = append(out, l)
		at = append(at, l.At)
	}
	return out
}

// mounts are p's paths in the order they are mounted: a directory before
// what is in it, so a nested path is not hidden by its parent's mount
// (a project under /tmp, a write path inside a read one). The home
// directory is an empty read-only one unless p opens it: the paths
// opened inside it appear, nothing else does.
func mounts(p Profile) []mount {
	var ms []mount
	for _, r := range p.Read {
		ms = append(ms, mount{src: r, dst: r})
	}
	for _, w := range p.Write {
		if w != p.TempDir {
			ms = append(ms, mount{src: w, dst: w, write: true})
		}
	}
	for _, d := range p.Pinned {
		ms = append(ms, mount{src: d, dst: d, write: true, must: true})
	}
	for _, d := range p.ReadOnly {
		ms = append(ms, mount{src: d, dst: d, must: true})
	}
	for _, ph := range p.Placeholders {
		ms = append(ms, mount{src: ph.Path, dst: ph.Path, must: true})
	}
	if p.TempDir != "" {
		ms = append(ms, mount{src: p.TempDir, dst: insideTemp, write: true})
	}
	if p.Home != "" && !under(p.Home, slices.Concat(p.Read, p.Write)) {
		ms = append(ms, mount{dst: p.Home, empty: true})
	}
	slices.SortStableFunc(ms, func(x, y mount) int { return compareDepth(x.dst, y.dst) })
	return ms
}

// mountDsts are the host's paths that appear in the sandbox as
// themselves (not the private /tmp, whose content is not the host's, nor
// the empty directories the sandbox makes, where it may add to).
func mountDsts(p Profile) []string {
	var out []string
	for _, m := range mounts(p) {
		if !m.empty && (m.src != p.TempDir || m.dst != insideTemp) {
			out = append(out, m.dst)
		}
	}
	return out
}

// compareDepth orders paths so a directory comes before what is in it:
// fewer separators first (then by name, for a stable order).
func compareDepth(a, b string) int {
	if c := cmp.Compare(strings.Count(a, "/"), strings.Count(b, "/")); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}
