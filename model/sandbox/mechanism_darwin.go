//go:build darwin

package sandbox

import (
	"fmt"
	"net"
	"path/filepath"
	"strconv"
)

// sandboxExec is macOS's sandbox-exec, always at this path.
const sandboxExec = "/usr/bin/sandbox-exec"

// FindMechanism returns sandbox-exec, or an UnavailableError.
func FindMechanism(exists func(string) bool) (Mechanism, error) {
	if !exists(sandboxExec) {
		return Mechanism{}, &UnavailableError{Sentence: "sandbox needs /usr/bin/sandbox-exec, which this macOS does not have"}
	}
	return Mechanism{Name: "sandbox-exec", Path: sandboxExec, ProbeArgs: []string{"-p", "(version 1)(allow default)", "/usr/bin/true"}}, nil
}

// Wrap runs argv under p with sandbox-exec and a generated profile; the
// paths are resolved first (the kernel sees /private/tmp, not /tmp).
// With a host list, the proxy's loopback port is the only way out.
func (m Mechanism) Wrap(p Profile, argv, env []string, nt *Net) (Wrapped, error) {
	real := func(in []string) []string {
		out := make([]string, 0, len(in))
		for _, x := range in {
			if r, err := filepath.EvalSymlinks(x); err == nil {
				x = r
			}
			out = append(out, x)
		}
		return out
	}
	p.Read, p.Write, p.Hide, p.HideFiles = real(p.Read), real(p.Write), real(p.Hide), real(p.HideFiles)
	port := 0
	env = sandboxEnv(env, p.TempDir)
	if nt != nil && nt.Addr != "" && nt.Env != nil {
		_, ps, err := net.SplitHostPort(nt.Addr)
		if err != nil {
			return Wrapped{}, fmt.Errorf("proxy address %q: %w", nt.Addr, err)
		}
		port, _ = strconv.Atoi(ps)
		env = nt.Env(env, nt.Addr)
	}
	return Wrapped{
		Path: m.Path,
		Args: append([]string{"sandbox-exec", "-p", sbplProfile(p, port)}, argv...),
		Env:  env,
	}, nil
}
