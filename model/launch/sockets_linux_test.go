package launch

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// unixListener listens on a unix socket at path, accepting and closing
// until the test ends.
func unixListener(t *testing.T, path string) {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()
}

// TestSandboxRefusesUnixSockets, with real bubblewrap: a host socket the
// sandbox can see (in the project, which it reads) is reached without a
// sandbox (the test can fail) and not from inside one, where socket()
// itself is refused; socketpair still works; an agent socket a read
// entry names (${SSH_AUTH_SOCK} expanded) stays closed; a definition
// that lists a socket reaches it.
func TestSandboxRefusesUnixSockets(t *testing.T) {
	w := newBoxWorld(t)
	sock := filepath.Join(w.project, "s.sock")
	unixListener(t, sock)
	agentDir := t.TempDir()
	agent := filepath.Join(agentDir, "agent.sock")
	unixListener(t, agent)
	t.Setenv("SSH_AUTH_SOCK", agent)

	if got := startBox(t, w.bin, w.project, nil).tool("unix_connect", map[string]string{"path": sock}); got != "connected" {
		t.Fatalf("unsandboxed connect = %q: the test would prove nothing", got)
	}
	b := startBox(t, w.bin, w.project, &model.Sandbox{Profile: model.SandboxProfileDefault, Read: []string{agent, agentDir}})
	if got := b.tool("read", map[string]string{"path": filepath.Join(w.project, "README")}); got != "project file" {
		t.Fatalf("the sandbox does not show the project: %q", got)
	}
	if _, err := os.Stat(sock); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{sock, agent} {
		if got := b.tool("unix_connect", map[string]string{"path": path}); !strings.HasPrefix(got, "error: ") || !strings.Contains(got, "operation not permitted") && path == sock {
			t.Errorf("sandboxed connect to %s = %q", path, got)
		}
	}
	if got := b.tool("socketpair", nil); got != "pair" {
		t.Errorf("socketpair in the sandbox = %q", got)
	}
	b.stop()

	open := startBox(t, w.bin, w.project, &model.Sandbox{Profile: model.SandboxProfileDefault, Sockets: []string{sock}})
	if got := open.tool("unix_connect", map[string]string{"path": sock}); got != "connected" {
		t.Errorf("a listed socket: connect = %q", got)
	}
}
