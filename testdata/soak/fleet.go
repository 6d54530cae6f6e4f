package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// A server's role says what the run does to it besides calling it.
const (
	roleSteady     = "steady"     // only called (remote ones: faults at its proxy)
	roleCrashy     = "crashy"     // agents call its crash tool
	roleFlood      = "flood"      // floods stderr at start and on call, and log notifications
	roleHang       = "hang"       // stopped (SIGSTOP) for a while: only pings notice
	roleGrandchild = "grandchild" // starts a child of its own, and crashes too
	roleDaemon     = "daemon"     // starts a child in a session of its own (daemonizes), and crashes too
)

// server is one server of the run, as defined in a config file.
type server struct {
	name      string
	transport string // stdio, http, sse, ws
	kind      string // fault (testdata/faultserver), conf (testdata/confserver), calculator, weather (mcpdeck demo-server), ide (testdata/fakeeditor)
	role      string
	scope     string   // user (settings.json), project (.mcp.json) or ide (a lock file)
	args      []string // the fault server's own flags

	proxy  *proxy    // remote servers: what mcpdeck connects to
	up     *upstream // remote servers: the server process behind the proxy
	editor *editor   // the editor's server
	busy   atomic.Bool
}

// fleet is the run's servers: 22 on stdio, 12 on streamable HTTP, 8 on
// SSE, 8 on WebSocket and an editor's (testdata/fakeeditor: WebSocket
// with its token, found by its lock file); 10 of them in the project's
// .mcp.json (so they need approval, and the config churn reaches them),
// the editor's from its lock file, the rest in the person's
// settings.json. daemons adds stdio servers that daemonize a
// child (setsid), which only a subreaper or a cgroup can end with them.
func fleet(daemons int) []*server {
	var out []*server
	add := func(n int, prefix, transport, kind, role, scope string, args ...string) {
		for i := 1; i <= n; i++ {
			name := prefix
			if n > 1 {
				name = fmt.Sprintf("%s%02d", prefix, i)
			}
			out = append(out, &server{name: name, transport: transport, kind: kind, role: role, scope: scope, args: args})
		}
	}
	add(4, "st", "stdio", "fault", roleSteady, "user")
	add(2, "pst", "stdio", "fault", roleSteady, "project", "-modern")
	add(2, "pold", "stdio", "fault", roleSteady, "project")
	add(4, "crash", "stdio", "fault", roleCrashy, "user")
	add(3, "flood", "stdio", "fault", roleFlood, "user", "-stderr-mb", "1")
	add(3, "hang", "stdio", "fault", roleHang, "user")
	add(2, "gc", "stdio", "fault", roleGrandchild, "user", "-spawn-grandchild")
	add(daemons, "daemon", "stdio", "fault", roleDaemon, "user", "-spawn-daemon")
	add(1, "calc", "stdio", "calculator", roleSteady, "user")
	add(1, "weather", "stdio", "weather", roleSteady, "user")
	add(3, "http", "http", "fault", roleSteady, "user")
	add(3, "mhttp", "http", "fault", roleSteady, "user", "-modern")
	add(2, "phttp", "http", "fault", roleSteady, "project", "-modern")
	add(2, "exp", "http", "fault", roleSteady, "user", "-expire-after", "40")
	add(2, "conf", "http", "conf", roleSteady, "user")
	add(6, "sse", "sse", "fault", roleSteady, "user")
	add(2, "psse", "sse", "fault", roleSteady, "project")
	add(6, "ws", "ws", "fault", roleSteady, "user")
	add(2, "pws", "ws", "fault", roleSteady, "project")
	add(1, "ide", "ide", "ide", roleSteady, "ide")
	return out
}

// remote says whether the server is reached over the network through a
// proxy of the run's.
func (s *server) remote() bool { return s.transport != "stdio" && s.transport != "ide" }

// definition is the server's entry in its config file.
func (s *server) definition(w *world) map[string]any {
	env := map[string]any{runEnv: w.runID, serverEnv: s.name}
	switch {
	case s.kind == "calculator" || s.kind == "weather":
		demo := map[string]string{"calculator": "calculator", "weather": "weather-sim"}[s.kind]
		return map[string]any{"command": w.mcpdeck, "args": []string{"demo-server", demo}, "env": env}
	case !s.remote():
		return map[string]any{"command": w.faultBin, "args": s.args, "env": env}
	}
	path := map[string]string{"http": "/mcp", "sse": "/sse", "ws": "/ws"}[s.transport]
	scheme := "http"
	if s.transport == "ws" {
		scheme = "ws"
	}
	return map[string]any{"type": s.transport, "url": scheme + "://" + s.proxy.addr() + path}
}

// startRemote starts the proxy and the server process behind it.
func (s *server) startRemote(w *world, counts *faultCounts) error {
	p, err := newProxy(s.name, counts)
	if err != nil {
		return err
	}
	s.proxy = p
	bin, mode, args := w.faultBin, "-"+s.transport, append([]string(nil), s.args...)
	if s.kind == "conf" {
		bin, mode = w.confBin, "-http"
	}
	if s.transport == "sse" {
		args = append(args, "-public", "http://"+p.addr())
	}
	s.up = &upstream{bin: bin, mode: mode, args: args, addr: "127.0.0.1:0", log: w.logFile("upstream-" + s.name)}
	if err := s.up.start(); err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	go p.serve(s.up.addr)
	return nil
}

// upstream is a remote server's process, which the run may kill and
// start again on the same address.
type upstream struct {
	bin, mode, addr string
	args            []string
	log             io.Writer

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// start runs the server and waits for the address it announces
// ("listening on URL"), kept so that a restart listens there again.
func (u *upstream) start() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	cmd := exec.Command(u.bin, append([]string{u.mode, u.addr}, u.args...)...)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	br := bufio.NewReader(stderr)
	line, err := br.ReadString('\n')
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(u.log, br)
		_ = cmd.Wait()
		close(done)
	}()
	if err != nil {
		_ = cmd.Process.Kill()
		<-done
		return fmt.Errorf("the server did not announce its address: %w", err)
	}
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if !ok {
		_ = cmd.Process.Kill()
		<-done
		return fmt.Errorf("the server said %q, want its address", line)
	}
	url = strings.TrimPrefix(url, "http://")
	u.addr, _, _ = strings.Cut(url, "/")
	u.cmd, u.done = cmd, done
	return nil
}

// stop kills the server and waits for it.
func (u *upstream) stop() {
	u.mu.Lock()
	cmd, done := u.cmd, u.done
	u.cmd = nil
	u.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Kill()
	<-done
}

// restart kills the server, waits down, and starts it on the same
// address again (tries for 10 s: the port is free once the old process
// is gone, but another program could take it meanwhile).
func (u *upstream) restart(down time.Duration) error {
	u.stop()
	time.Sleep(down)
	var err error
	for range 50 {
		if err = u.start(); err == nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return err
}

// editor is the fake editor: it serves its MCP server on a port of its
// own and announces it in a lock file under the person's Claude config
// dir, which mcpdeck watches. Restarting it is an editor closed and
// opened again: the lock file goes, a new one comes with a new port.
type editor struct {
	bin, dir, workspace string
	log                 io.Writer

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

func (e *editor) start() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	cmd := exec.Command(e.bin, "-dir", e.dir, "-workspace", e.workspace, "-transport", "ws")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	br := bufio.NewReader(stderr)
	line, err := br.ReadString('\n')
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(e.log, br)
		_ = cmd.Wait()
		close(done)
	}()
	if err != nil || !strings.HasPrefix(line, "listening on ") {
		_ = cmd.Process.Kill()
		<-done
		return fmt.Errorf("the fake editor said %q (%v), want its port", line, err)
	}
	e.cmd, e.done = cmd, done
	return nil
}

// stop closes the editor as a person does (SIGTERM: it removes its lock
// file), killing it if it has not gone within 5 s.
func (e *editor) stop() {
	e.mu.Lock()
	cmd, done := e.cmd, e.done
	e.cmd = nil
	e.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

func (e *editor) restart(down time.Duration) error {
	e.stop()
	time.Sleep(down)
	return e.start()
}
