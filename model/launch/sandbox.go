package launch

import (
	"bufio"
	"fmt"
	"os"
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

// startSandboxed starts s's program, found and judged as any program is,
// inside its sandbox: the mechanism comes from a fixed system path, the
// profile from model/sandbox.Resolve, and the private temporary
// directory made here goes when the program exits. Where no mechanism
// exists, nothing starts and the error says what to install.
func (l Launcher) startSandboxed(s Spec, stdin, stdout, stderr *os.File) (*platform.Group, error) {
	cmd, prog, err := l.resolve(s)
	if err != nil {
		return nil, err
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
	g, err := startWith(cmd, stdin, stdout, stderr)
	for _, f := range w.ExtraFiles {
		_ = f.Close()
	}
	if err != nil {
		closeReady(w.Ready)
		_ = os.RemoveAll(tmp)
		return nil, fmt.Errorf("%s: %w", mech.Name, err)
	}
	g.AfterExit(func() { _ = os.RemoveAll(tmp) })
	if err := sandboxReady(w.Ready); err != nil {
		g.Signal(platform.Kill)
		_, _ = g.Wait()
		return nil, err
	}
	return g, nil
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

func realPath(p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	return r
}
