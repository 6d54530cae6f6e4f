package launch

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/sandbox"
)

// runtimeNames are the interpreters a server's program may hand over to:
// their directories are the server's runtime, readable in its sandbox.
func runtimeNames() []string {
	return []string{"node", "python3", "python", "uv", "uvx", "bun", "deno", "npx", "npm"}
}

// wrapped is a program wrapped in its sandbox, ready to start: the
// command, the mechanism's readiness pipe and the descriptors it takes
// (the launcher closes its copies once started), and the private
// temporary directory, removed when the program ends.
type wrapped struct {
	cmd   *exec.Cmd
	ready *os.File
	extra []*os.File
	tmp   string
	mech  string
}

// sandboxedCmd finds and judges s's program as any program is, checks
// its sandbox against managed policy's maximum (judging each path as
// what it reaches), and wraps it: the mechanism comes from a fixed
// system path, the profile from model/sandbox.Resolve, the environment
// from sandbox.ServerEnv. Where no mechanism exists, nothing is made and
// the error says what to install.
func (l Launcher) sandboxedCmd(s Spec) (*wrapped, error) {
	cmd, prog, err := l.resolve(s)
	if err != nil {
		return nil, err
	}
	if rule, beyond := l.Policy.SandboxBeyond(l.Server, prog, s.Sandbox, realOrSelf); beyond {
		return nil, &BlockedError{Program: prog.Path, Rule: rule}
	}
	find := l.mechanism
	if find == nil {
		find = func() (sandbox.Mechanism, error) { return sandbox.FindMechanism(exists) }
	}
	mech, err := find()
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "mcpdeck-sandbox-")
	if err != nil {
		return nil, fmt.Errorf("sandbox temporary directory: %w", err)
	}
	facts, err := l.facts(s, prog, cmd.Dir, tmp)
	if err != nil {
		_ = os.RemoveAll(tmp)
		return nil, err
	}
	profile := sandbox.Resolve(s.Sandbox, facts)
	env := sandbox.ServerEnv(os.Environ(), s.Env, s.Sandbox.Network)
	w, err := mech.Wrap(profile, append([]string{prog.Path}, prog.Args...), env, s.Net)
	if err != nil {
		_ = os.RemoveAll(tmp)
		return nil, err
	}
	cmd.Path, cmd.Args, cmd.Env, cmd.ExtraFiles = w.Path, w.Args, w.Env, w.ExtraFiles
	if l.starting != nil {
		l.starting(cmd)
	}
	return &wrapped{cmd: cmd, ready: w.Ready, extra: w.ExtraFiles, tmp: tmp, mech: mech.Name}, nil
}

// closeExtra closes the launcher's copies of the mechanism's descriptors.
func (b *wrapped) closeExtra() {
	for _, f := range b.extra {
		_ = f.Close()
	}
}

// startSandboxed starts s's program inside its sandbox (sandboxedCmd);
// the private temporary directory goes when the program exits.
func (l Launcher) startSandboxed(s Spec, stdin, stdout, stderr *os.File) (*platform.Group, error) {
	b, err := l.sandboxedCmd(s)
	if err != nil {
		return nil, err
	}
	g, err := startWith(b.cmd, stdin, stdout, stderr)
	b.closeExtra()
	if err != nil {
		closeReady(b.ready)
		_ = os.RemoveAll(b.tmp)
		return nil, fmt.Errorf("%s: %w", b.mech, err)
	}
	g.AfterExit(func() { _ = os.RemoveAll(b.tmp) })
	if err := sandboxReady(b.ready); err != nil {
		g.Signal(platform.Kill)
		_, _ = g.Wait()
		return nil, err
	}
	return g, nil
}

// runSandboxed runs s to its end inside a sandbox, as Run does: s's own,
// else the server's (Launcher.Sandbox), else the default profile.
func (l Launcher) runSandboxed(ctx context.Context, s Spec, stdin []byte, lim platform.Limits) ([]byte, error) {
	if s.Sandbox == nil {
		s.Sandbox = l.Sandbox
	}
	if s.Sandbox == nil {
		s.Sandbox = model.DefaultSandbox()
	}
	b, err := l.sandboxedCmd(s)
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(b.tmp) }()
	defer closeReady(b.ready)
	defer b.closeExtra()
	return platform.Run(ctx, b.cmd, stdin, lim)
}

// readyTimeout bounds the wait for a mechanism to say its sandbox exists.
const readyTimeout = 10 * time.Second

// sandboxReady waits until the mechanism has made the sandbox (the
// first JSON object on ready ends) or gave up (ready closes empty:
// ErrNoNamespaces); nil ready is a mechanism that does not say.
func sandboxReady(ready *os.File) error {
	if ready == nil {
		return nil
	}
	defer closeReady(ready)
	_ = ready.SetReadDeadline(time.Now().Add(readyTimeout))
	line, err := bufio.NewReader(ready).ReadString('}')
	if err != nil && !strings.Contains(line, "child-pid") {
		return sandbox.ErrNoNamespaces
	}
	return nil
}

func closeReady(f *os.File) {
	if f != nil {
		_ = f.Close()
	}
}

// facts gathers what sandbox.Resolve needs about this machine and s.
func (l Launcher) facts(s Spec, prog model.Program, dir, tmp string) (sandbox.Facts, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return sandbox.Facts{}, fmt.Errorf("sandbox: %w", err)
	}
	f := sandbox.Facts{
		GOOS: runtime.GOOS, Home: home, Project: l.Project, RunsIn: dir, TempDir: tmp,
		Program: prog, RuntimeDir: os.Getenv("XDG_RUNTIME_DIR"), AgentSocket: os.Getenv("SSH_AUTH_SOCK"),
		Exists: exists, Real: realPath, IsFile: isFile, IsSocket: isSocket,
	}
	for _, own := range []func() (string, error){platform.ConfigDir, platform.CacheDir} {
		if d, err := own(); err == nil {
			f.Own = append(f.Own, d)
		}
	}
	pathList, ok := s.Env["PATH"]
	if !ok {
		pathList = os.Getenv("PATH")
	}
	for _, name := range runtimeNames() {
		if p, err := platform.LookPath(name, dir, pathList); err == nil {
			f.Runtimes = append(f.Runtimes, p)
			if r := realPath(p); r != "" && r != p {
				f.Runtimes = append(f.Runtimes, r)
			}
		}
	}
	if s.Net != nil && s.Net.ShimArgs != nil {
		self, err := os.Executable()
		if err != nil {
			return f, fmt.Errorf("sandbox network: %w", err)
		}
		f.Self = self
	}
	return f, nil
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

func isFile(p string) bool { st, err := os.Stat(p); return err == nil && st.Mode().IsRegular() }

func isSocket(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode()&os.ModeSocket != 0
}

// realOrSelf is p with its symbolic links resolved, or p when it cannot
// be: how managed policy's maximum judges a path.
func realOrSelf(p string) string {
	if r := realPath(p); r != "" {
		return r
	}
	return p
}

func realPath(p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	return r
}
