package launch

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/sandbox"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// A version manager's shim (pyenv's python3, asdf's node, mise's and
// volta's links to their own binary) is no interpreter: it runs the
// manager, which reads its own directory, the version files of where it
// runs and its plugins, then execs the real interpreter. In a sandbox
// that opens only the shim's directory the manager cannot run. So a
// sandboxed server whose program is a shim is resolved once, before it
// starts: the manager is asked which interpreter the shim runs (its own
// "which" command), in a sandbox of its own that reads the manager's
// directory and nothing it may not read anyway (no network, no writes),
// and the server's sandbox runs that interpreter directly, judged by
// policy like any program. nvm and uv need none of this: what they put on
// PATH is the interpreter itself, or a link to it.

// managerQuery is how to ask a version manager which interpreter a shim
// runs.
type managerQuery struct {
	manager string // "pyenv", "asdf", "mise", "volta"...
	command string // the manager's program
	args    []string
	env     map[string]string
	// root is the manager's own directory, which its query reads.
	root string
}

var (
	// A pyenv-style shim (pyenv, rbenv, nodenv, goenv...): exec
	// "ROOT/libexec/TOOL" exec "$program" "$@".
	envShim = regexp.MustCompile(`exec "([^"\n]+)/libexec/([a-z]+)" exec "\$program"`)
	// An asdf shim: exec [/path/to/]asdf exec "NAME" "$@".
	asdfShim = regexp.MustCompile(`exec ("?)([^"\s]*asdf)("?) exec "([^"\n]+)"`)
)

// shimOf reports whether prog is a version manager's shim and how to ask
// the manager what it runs; head is the start of the shim's file,
// lookPath finds a bare name on mcpdeck's own PATH.
func shimOf(prog model.Program, head []byte, home string, lookPath func(string) string) (managerQuery, bool) {
	name := filepath.Base(prog.Path)
	real := prog.Real
	if real == "" {
		real = prog.Path
	}
	shimDir := filepath.Dir(prog.Path)
	switch {
	case bytes.HasPrefix(head, []byte("#!")):
		if m := envShim.FindSubmatch(head); m != nil {
			root, tool := string(m[1]), string(m[2])
			return managerQuery{
				manager: tool, command: filepath.Join(root, "libexec", tool), args: []string{"which", name},
				env: map[string]string{strings.ToUpper(tool) + "_ROOT": root}, root: root,
			}, true
		}
		if m := asdfShim.FindSubmatch(head); m != nil {
			asdf := string(m[2])
			if !filepath.IsAbs(asdf) {
				asdf = lookPath(asdf)
			}
			if asdf == "" {
				return managerQuery{}, false
			}
			return managerQuery{manager: "asdf", command: asdf, args: []string{"which", string(m[4])}, root: filepath.Dir(shimDir)}, true
		}
	case filepath.Base(real) == "mise" && name != "mise":
		return managerQuery{manager: "mise", command: real, args: []string{"which", name}, root: filepath.Dir(shimDir)}, true
	case filepath.Base(real) == "volta-shim":
		root := filepath.Dir(filepath.Dir(real))
		if filepath.Base(filepath.Dir(real)) != "bin" {
			root = filepath.Join(home, ".volta")
		}
		return managerQuery{
			manager: "volta", command: filepath.Join(filepath.Dir(real), "volta"), args: []string{"which", name},
			env: map[string]string{"VOLTA_HOME": root}, root: root,
		}, true
	}
	return managerQuery{}, false
}

// managerTimeout bounds a version manager's answer.
const managerTimeout = 10 * time.Second

// ErrShim is a version manager's shim whose interpreter the manager did
// not name: the server does not run (the shim itself cannot, sandboxed).
var ErrShim = errors.New("cannot resolve the version manager's shim")

// resolveShim asks the manager of prog, when it is a shim, which
// interpreter it runs (in dir, with s's environment), and returns the
// resolution, judged by policy; nil when prog is no shim.
func (l Launcher) resolveShim(s Spec, prog model.Program, dir string) (*sandbox.Shim, error) {
	head, err := readHead(cmp.Or(prog.Real, prog.Path), 4096)
	if err != nil {
		head = nil // a binary the launcher cannot read is no script; mise and volta are links
	}
	home, _ := os.UserHomeDir()
	q, ok := shimOf(prog, head, home, prog.FindOnMcpdeckPATH)
	if !ok {
		return nil, nil
	}
	fail := func(why string) error {
		return fmt.Errorf("%w: %s is a %s shim, and %s %s %s", ErrShim, prog.Path, q.manager, q.manager, strings.Join(q.args, " "), why)
	}
	env := map[string]string{}
	for k, v := range s.Env {
		env[k] = v
	}
	for k, v := range q.env {
		env[k] = v
	}
	ask := Spec{
		What: q.manager + " " + strings.Join(q.args, " "), Command: q.command, Args: q.args, Env: env, Dir: dir,
		Sandbox: &model.Sandbox{Profile: model.SandboxProfileDefault, Read: []string{q.root}}, noShim: true,
	}
	out, err := l.askManager(ask)
	first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	first = textsafe.SanitizeLine(strings.TrimSpace(first))
	if err != nil {
		return nil, fail(fmt.Sprintf("failed (%v): %s", err, first))
	}
	interp := ""
	for _, line := range strings.Split(string(out), "\n") {
		if line = strings.TrimSpace(line); filepath.IsAbs(line) {
			interp = line
			break
		}
	}
	if interp == "" || !isFile(interp) {
		return nil, fail(fmt.Sprintf("named no interpreter: %s", first))
	}
	judged, err := model.ResolveProgram(interp, prog.Args, s.Env, dir, os.LookupEnv)
	if err != nil {
		return nil, fail(err.Error())
	}
	if d := l.Policy.Judge(l.Server, judged); !d.Allowed {
		return nil, &BlockedError{Program: judged.Path, Rule: d.Rule}
	}
	return &sandbox.Shim{Manager: q.manager, Shim: prog.Path, Interpreter: judged.Path}, nil
}

// askManager runs a version manager's query in its sandbox and returns
// what it printed, stdout and stderr (at most 4 KiB); err is set unless
// the query exits 0.
func (l Launcher) askManager(s Spec) ([]byte, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	g, err := l.startSandboxed(s, nil, w, w)
	_ = w.Close()
	if err != nil {
		_ = r.Close()
		return nil, err
	}
	timer := time.AfterFunc(managerTimeout, func() { g.Signal(platform.Kill) })
	defer timer.Stop()
	out, _ := io.ReadAll(io.LimitReader(r, 4096))
	_ = r.Close() // a manager printing more is stopped by its closed pipe
	st, err := g.Wait()
	switch {
	case err != nil:
		return out, err
	case !st.Success():
		return out, fmt.Errorf("%s", st)
	}
	return out, nil
}
