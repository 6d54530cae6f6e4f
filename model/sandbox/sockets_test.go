package sandbox

import (
	"slices"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestResolveNeverOpensSockets: a read entry naming the SSH agent's
// socket (as ${SSH_AUTH_SOCK} expands), the runtime directory or the
// Docker daemon's socket is dropped, and such a path inside an opened
// directory is hidden; the filter stays on.
func TestResolveNeverOpensSockets(t *testing.T) {
	paths := map[string]bool{"/tmp/ssh-abc/agent.1": true, "/run/user/1000": false, "/var/run/docker.sock": true, "/run/podman": false}
	f := fakeFacts(paths, nil)
	f.AgentSocket = "/tmp/ssh-abc/agent.1"
	box := &model.Sandbox{Profile: model.SandboxProfileDefault, Read: []string{"/tmp/ssh-abc/agent.1", "/run/user/1000/systemd", "/var/run/docker.sock", "/run/podman/podman.sock", "/run"}}
	p := Resolve(box, f)
	for _, d := range []string{"/tmp/ssh-abc/agent.1", "/run/user/1000/systemd", "/var/run/docker.sock", "/run/podman/podman.sock"} {
		if _, ok := dropped(p, d); !ok || under(d, p.Read) && !slices.Contains(p.Hide, d) && !slices.Contains(p.HideFiles, d) && !under(d, p.Hide) {
			t.Errorf("%s: dropped %v, read %v, hidden %v %v", d, p.Dropped, p.Read, p.Hide, p.HideFiles)
		}
	}
	if !slices.Contains(p.Hide, "/run/podman") || !slices.Contains(p.Hide, "/run/user/1000") {
		t.Errorf("/run opened: hide %v", p.Hide)
	}
	f.IsSocket = func(p string) bool { return p == "/tmp/ssh-abc/agent.1" }
	if p := Resolve(&model.Sandbox{Profile: model.SandboxProfileDefault, Read: []string{"/tmp/ssh-abc"}}, f); !slices.Contains(p.HideFiles, "/tmp/ssh-abc/agent.1") {
		t.Errorf("the agent's socket in an opened directory is masked as a file is: hide %v, files %v", p.Hide, p.HideFiles)
	}
	if p.UnixSockets || len(p.Sockets) != 0 {
		t.Errorf("sockets %v, allowed %v", p.Sockets, p.UnixSockets)
	}
}

// TestResolveListedSockets: sockets a definition lists lift the filter;
// those that are sockets are opened, even on the never-list; the rest
// are not.
func TestResolveListedSockets(t *testing.T) {
	f := fakeFacts(map[string]bool{}, nil)
	f.IsSocket = func(p string) bool { return p == "/var/run/docker.sock" }
	p := Resolve(&model.Sandbox{Profile: model.SandboxProfileDefault, Sockets: []string{"/var/run/docker.sock", "/home/u/.ssh/id_rsa"}}, f)
	if !p.UnixSockets || !slices.Equal(p.Sockets, []string{"/var/run/docker.sock"}) {
		t.Errorf("sockets %v, allowed %v", p.Sockets, p.UnixSockets)
	}
}
