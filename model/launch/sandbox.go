package launch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
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
// (the launcher closes its copies once started), and done, which
// releases the profile's placeholders and removes the private temporary
// directory once the program ends.
type wrapped struct {
	cmd   *exec.Cmd
	ready *os.File
	extra []*os.File
	done  func()
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
	if !s.noShim {
		if err := l.withShim(&facts, s, prog, cmd.Dir); err != nil {
			_ = os.RemoveAll(tmp)
			return nil, err
		}
	}
	profile := sandbox.Resolve(s.Sandbox, facts)
	held, err := holdPlaceholders(profile.Placeholders)
	if err != nil {
		_ = os.RemoveAll(tmp)
		return nil, err
	}
	done := func() {
		held.release()
		_ = os.RemoveAll(tmp)
	}
	env := sandbox.ServerEnv(os.Environ(), s.Env, s.Sandbox.Network)
	w, err := mech.Wrap(profile, append([]string{profile.Program}, profile.Args...), env, s.Net)
	if err != nil {
		done()
		return nil, err
	}
	cmd.Path, cmd.Args, cmd.Env, cmd.ExtraFiles = w.Path, w.Args, w.Env, w.ExtraFiles
	if l.starting != nil {
		l.starting(cmd)
	}
	return &wrapped{cmd: cmd, ready: w.Ready, extra: w.ExtraFiles, done: done, mech: mech.Name}, nil
}

// closeExtra closes the launcher's copies of the mechanism's descriptors.
func (b *wrapped) closeExtra() {
	for _, f := range b.extra {
		_ = f.Close()
	}
}

// startSandboxed starts s's program inside its sandbox (sandboxedCmd);
// its placeholders and private temporary directory go when it exits.
func (l Launcher) startSandboxed(s Spec, stdin, stdout, stderr *os.File) (*platform.Group, error) {
	b, err := l.sandboxedCmd(s)
	if err != nil {
		return nil, err
	}
	g, err := startWith(b.cmd, stdin, stdout, stderr)
	b.closeExtra()
	if err != nil {
		closeReady(b.ready)
		b.done()
		return nil, fmt.Errorf("%s: %w", b.mech, err)
	}
	g.AfterExit(b.done)
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
	defer b.done()
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
		Program: prog, RuntimeDir: os.Getenv("XDG_RUNTIME_DIR"), AgentSocket: os.Getenv("SSH_AUTH_SOCK"), GitConfigs: gitConfigs(home),
		Exists: exists, Real: realPath, IsFile: isFile, IsDir: isDir, IsSocket: isSocket, ReadDir: os.ReadDir, ReadHead: readHead, Lstat: os.Lstat,
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

// gitConfigs are the person's own git configuration files, where a
// core.hooksPath applies to every repository.
func gitConfigs(home string) []string {
	out := []string{filepath.Join(home, ".gitconfig"), "/etc/gitconfig"}
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" {
		xdg = filepath.Join(home, ".config")
	}
	out = append(out, filepath.Join(xdg, "git", "config"))
	if g := os.Getenv("GIT_CONFIG_GLOBAL"); g != "" {
		out = append(out, g)
	}
	return out
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

func isDir(p string) bool { st, err := os.Stat(p); return err == nil && st.IsDir() }

// readHead reads at most n bytes of the regular file at p: a FIFO or a
// device a repository puts in a file's place is never read (nor waited
// for: openNonBlocking).
func readHead(p string, n int) ([]byte, error) {
	if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", p)
	}
	f, err := openNonBlocking(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", p)
	}
	return io.ReadAll(io.LimitReader(f, int64(n)))
}

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

// Explain is the sandbox s would start in now, worked out as Start works
// it out but starting nothing (no private /tmp is made, no placeholder):
// what the approval prompt and `mcp get` show. ask lets it ask a version
// manager which interpreter a shim runs (that starts the manager's query,
// in its own sandbox); without it, a shim is resolved at start only. A
// program that is not found (or policy blocks) still gets the rest of
// its profile.
func (l Launcher) Explain(s Spec, ask bool) (sandbox.Profile, error) {
	if s.Sandbox == nil {
		return sandbox.Profile{}, errors.New("no sandbox")
	}
	_, prog, err := l.resolve(s)
	if err != nil && prog.Path == "" {
		prog = model.Program{Command: s.Command, Args: s.Args}
	}
	dir, err := filepath.Abs(s.Dir)
	if err != nil {
		return sandbox.Profile{}, fmt.Errorf("working directory: %w", err)
	}
	facts, err := l.facts(s, prog, dir, "")
	if err != nil {
		return sandbox.Profile{}, err
	}
	if ask && prog.Path != "" {
		if err := l.withShim(&facts, s, prog, dir); err != nil {
			return sandbox.Profile{}, err
		}
	}
	return sandbox.Resolve(s.Sandbox, facts), nil
}

// ExplainServer is Explain for srv's own program, with project as the
// project's root (config.Resolved.ProjectRoot).
func ExplainServer(srv model.Server, project string, ask bool) (sandbox.Profile, error) {
	l := For(srv)
	l.Project = project
	c := srv.Config
	return l.Explain(Spec{Command: c.Command, Args: c.Args, Env: c.Env, Dir: c.Cwd, Sandbox: c.Sandbox}, ask)
}

// withShim adds to f the interpreter behind prog when it is a version
// manager's shim (resolveShim).
func (l Launcher) withShim(f *sandbox.Facts, s Spec, prog model.Program, dir string) error {
	shim, err := l.resolveShim(s, prog, dir)
	if err != nil || shim == nil {
		return err
	}
	f.Shim, f.Interpreter = shim, shim.Interpreter
	f.Runtimes = append(f.Runtimes, shim.Interpreter)
	return nil
}
