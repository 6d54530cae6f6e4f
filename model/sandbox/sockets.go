package sandbox

import (
	"path/filepath"

	"github.com/mcpdeck/mcpdeck/model"
)

// neverSockets are the never-list's doors rather than files: the
// session's runtime directory (D-Bus, the keyring, GPG and SSH agents,
// podman, pipewire), every user's runtime directory, the SSH agent's
// socket wherever $SSH_AUTH_SOCK puts it, the Docker, podman and
// containerd daemons' sockets, and X11's. A read-only bind stops no
// connect(), so none of these is bound at all; the socket filter
// (socketFilter) stops the connect() besides.
func neverSockets(f Facts) []string {
	out := []string{
		"/run/user", "/var/run/user",
		"/run/docker.sock", "/var/run/docker.sock", "/run/podman", "/var/run/podman",
		"/run/containerd", "/var/run/containerd", "/tmp/.X11-unix",
	}
	for _, p := range []string{f.RuntimeDir, f.AgentSocket} {
		if p != "" && filepath.IsAbs(p) {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}

// openSockets are the sockets box lists that exist and are sockets
// (with IsSocket's word), each as the path its links reach, and whether the server may make unix sockets:
// yes as soon as the definition lists any, for the socket filter cannot
// tell one path from another. A listed socket is opened never-list or
// not: listing it (in the person's user settings only, see
// model.Sandbox.Sockets) is the person's decision to open that door.
func openSockets(box *model.Sandbox, f Facts) (sockets []string, allowed bool) {
	if box == nil || len(box.Sockets) == 0 {
		return nil, false
	}
	for _, s := range box.Sockets {
		s = filepath.Clean(s)
		if f.Real != nil { // the socket a link leads to is the one opened
			if t := f.Real(s); t != "" {
				s = t
			}
		}
		if f.IsSocket != nil && f.IsSocket(s) {
			sockets = append(sockets, s)
		}
	}
	return sockets, true
}
