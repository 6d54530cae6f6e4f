//go:build linux

package sandbox

import (
	"fmt"
	"os"
)

// bwrapPaths are where mcpdeck looks for bubblewrap: system places only.
func bwrapPaths() []string {
	return []string{"/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap", "/run/current-system/sw/bin/bwrap"}
}

// FindMechanism returns bubblewrap, or an UnavailableError saying how to install it.
func FindMechanism(exists func(string) bool) (Mechanism, error) {
	path := firstExisting(bwrapPaths(), exists)
	if path == "" {
		return Mechanism{}, &UnavailableError{Sentence: "sandbox needs bubblewrap: install the package bubblewrap (apt-get install bubblewrap, dnf install bubblewrap)"}
	}
	return Mechanism{
		Name: "bubblewrap", Path: path, VersionArgs: []string{"--version"},
		ProbeArgs: []string{"--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--", "true"},
	}, nil
}

// Wrap runs argv under p with bubblewrap; env is the server's
// environment. With a host list, the shim inside forwards the proxy's
// socket and sets the proxy variables itself.
func (m Mechanism) Wrap(p Profile, argv, env []string, net *Net) (Wrapped, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return Wrapped{}, fmt.Errorf("bubblewrap: %w", err)
	}
	// --info-fd 3 (ExtraFiles[0]): bubblewrap writes the sandbox's
	// namespaces there once it made them.
	files := []*os.File{w}
	if !p.UnixSockets {
		// --seccomp 4 (ExtraFiles[1]): the socket filter, read to its end.
		f, err := filterPipe()
		if err != nil {
			_, _ = r.Close(), w.Close()
			return Wrapped{}, err
		}
		files = append(files, f)
	}
	if shimmed(p, net) {
		files = append(files, net.Control) // the shim's --control-fd
	}
	args := append([]string{"bwrap", "--info-fd", "3"}, bwrapArgs(p, argv, net)...)
	env = sandboxEnv(env, insideTemp)
	if shimmed(p, net) {
		env = append(env, net.ShimEnv...)
	}
	return Wrapped{Path: m.Path, Args: args, Env: env, ExtraFiles: files, Ready: r}, nil
}
