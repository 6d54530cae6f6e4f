package launch

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/testdata/boxtest"
	"github.com/mcpdeck/mcpdeck/testdata/launchtest"
)

// The tests here attack the sandbox the way a hostile repository would,
// through the names a tree gives things (links, "..", files that run
// later), with real bubblewrap: each failed on the sandbox that judged
// names instead of what they reach.

// shWorld is a planted home (with the key, a shell start-up file, a
// secret in a direct child and mcpdeck's own credentials) and a project
// in it, a repository.
type shWorld struct{ home, key, project string }

const (
	secretHistory = "secret history"
	secretCreds   = "secret credentials"
	secretRC      = "# the person's own .bashrc"
)

func newShWorld(t *testing.T) shWorld {
	t.Helper()
	boxtest.RequireMechanism(t)
	w := shWorld{}
	w.home, w.key = boxtest.PlantHome(t)
	w.project = filepath.Join(w.home, "src", "proj")
	for path, text := range map[string]string{
		filepath.Join(w.home, ".bash_history"):                          secretHistory,
		filepath.Join(w.home, ".claude", ".credentials.json"):           secretCreds,
		filepath.Join(w.home, ".config", "mcpdeck", "credentials.json"): secretCreds,
		filepath.Join(w.home, ".bashrc"):                                secretRC,
		filepath.Join(w.home, "notes.txt"):                              secretHistory,
		filepath.Join(w.project, "README"):                              "project file",
		filepath.Join(w.project, ".mcp.json"):                           "{}",
	} {
		mustWrite(t, path, text)
	}
	return w
}

func mustWrite(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustLink(t *testing.T, target, at string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, at); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// boxedRun starts command with args in box, in dir, with project as
// mcpdeck's project root, and returns what it printed (stdout and
// stderr) once it ended.
func boxedRun(t *testing.T, project, dir string, box *model.Sandbox, command string, args ...string) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	l := Launcher{Server: "attack", Project: project}
	g, err := l.Start(Spec{Command: command, Args: args, Dir: dir, Sandbox: box}, nil, w, w)
	_ = w.Close()
	if err != nil {
		_ = r.Close()
		t.Fatalf("start %s: %v", command, err)
	}
	out, _ := io.ReadAll(r)
	_ = r.Close()
	_, _ = g.Wait()
	return string(out)
}

// boxedSh runs a shell script in box (see boxedRun).
func boxedSh(t *testing.T, project, dir string, box *model.Sandbox, script string) string {
	t.Helper()
	return boxedRun(t, project, dir, box, "/bin/sh", "-c", script)
}

// TestSandboxSymlinkedArguments: a project server's arguments that the
// repository ships as links to ~/.bash_history and
// ~/.claude/.credentials.json open neither (an argument that is a link
// opens only its file's own package, never home or a direct child of
// it), through the link or directly; the project stays readable.
func TestSandboxSymlinkedArguments(t *testing.T) {
	w := newShWorld(t)
	mustLink(t, "../../.bash_history", filepath.Join(w.project, "data.json"))
	mustLink(t, filepath.Join(w.home, ".claude", ".credentials.json"), filepath.Join(w.project, "schema.json"))
	script := `for f in "$1" "$2" ` + filepath.Join(w.home, ".bash_history") + " " + filepath.Join(w.home, ".claude", ".credentials.json") + `; do cat "$f" 2>/dev/null && echo " <- $f"; done; cat README`
	out := boxedRun(t, w.project, w.project, model.DefaultSandbox(), "/bin/sh", "-c", script, "sh", "data.json", "schema.json")
	if strings.Contains(out, secretHistory) || strings.Contains(out, secretCreds) {
		t.Errorf("a linked argument opened a secret:\n%s", out)
	}
	if !strings.Contains(out, "project file") {
		t.Errorf("the project is not readable:\n%s", out)
	}
	// The program's own arguments, not a shell's: the links name files.
	out = boxedRun(t, w.project, w.project, model.DefaultSandbox(), "/bin/cat", "data.json", "schema.json")
	if strings.Contains(out, secretHistory) || strings.Contains(out, secretCreds) {
		t.Errorf("cat of linked arguments read a secret:\n%s", out)
	}
}

// TestSandboxSymlinkedWritePaths: "write": ["assets"] and "write":
// ["build"], where the repository makes assets a link to the home
// directory and build one to ~/.bashrc, open neither: the key, mcpdeck's
// credentials and a sibling repository's hooks are out of reach, and
// ~/.bashrc is unchanged, whichever name the server uses.
func TestSandboxSymlinkedWritePaths(t *testing.T) {
	w := newShWorld(t)
	mustLink(t, "../..", filepath.Join(w.project, "assets"))
	mustLink(t, filepath.Join(w.home, ".bashrc"), filepath.Join(w.project, "build"))
	sibling := filepath.Join(w.home, "src", "other")
	mustWrite(t, filepath.Join(sibling, ".git", "hooks", "README"), "hooks")
	attacks := map[string]string{
		"assets": strings.Join([]string{
			"cat assets/.ssh/id_rsa " + w.key,
			"cat assets/.config/mcpdeck/credentials.json " + filepath.Join(w.home, ".config", "mcpdeck", "credentials.json"),
			"echo evil >> assets/.bashrc", "echo evil >> " + filepath.Join(w.home, ".bashrc"),
			"echo evil > assets/src/other/.git/hooks/pre-commit", "echo evil > " + filepath.Join(sibling, ".git", "hooks", "pre-commit"),
			"echo done",
		}, "; "),
		"build": "echo evil >> build; echo evil >> " + filepath.Join(w.home, ".bashrc") + "; echo done",
	}
	for name, script := range attacks {
		box := &model.Sandbox{Profile: model.SandboxProfileDefault, Write: []string{filepath.Join(w.project, name)}}
		out := boxedSh(t, w.project, w.project, box, script)
		if strings.Contains(out, boxtest.Key) || strings.Contains(out, secretCreds) {
			t.Errorf("write %s: a linked write path opened a secret:\n%s", name, out)
		}
		if got := mustRead(t, filepath.Join(w.home, ".bashrc")); got != secretRC {
			t.Errorf("write %s: ~/.bashrc was written: %q", name, got)
		}
		if _, err := os.Stat(filepath.Join(sibling, ".git", "hooks", "pre-commit")); err == nil {
			t.Errorf("write %s: a sibling repository's hook was written", name)
		}
		if !strings.Contains(out, "done") {
			t.Errorf("write %s: the script did not run to its end:\n%s", name, out)
		}
	}
}

// TestSandboxHomeIsNeverTheProject: started in the home directory (or a
// directory of it that no .mcp.json or repository marks), the sandbox
// opens no project: the home's files stay unreadable and, with
// write-project, unwritable.
func TestSandboxHomeIsNeverTheProject(t *testing.T) {
	w := newShWorld(t)
	plain := filepath.Join(w.home, "Downloads")
	mustWrite(t, filepath.Join(plain, "file"), secretHistory)
	for _, start := range []string{w.home, plain} {
		box := &model.Sandbox{Profile: model.SandboxProfileWriteProject}
		out := boxedSh(t, start, start, box, "cat "+filepath.Join(w.home, "notes.txt")+" "+filepath.Join(plain, "file")+"; echo evil >> "+filepath.Join(w.home, ".bashrc")+"; echo done")
		if strings.Contains(out, secretHistory) {
			t.Errorf("started in %s: the home's files were read:\n%s", start, out)
		}
		if got := mustRead(t, filepath.Join(w.home, ".bashrc")); got != secretRC {
			t.Fatalf("started in %s: ~/.bashrc was written: %q", start, got)
		}
		if !strings.Contains(out, "done") {
			t.Errorf("started in %s: the script did not run:\n%s", start, out)
		}
	}
}

// gitRepo makes dir a git repository with one commit, as the person's
// own: hooks and configuration of its own, core.hooksPath set to
// .githooks (which does not exist yet).
func gitRepo(t *testing.T, dir string) {
	t.Helper()
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	mustWrite(t, filepath.Join(dir, "README"), "project file")
	git("init", "-q")
	git("add", "README")
	git("commit", "-q", "-m", "first")
}

// gitStatusRunsNothing runs git status (and a checkout) in dir outside
// the sandbox, as the person would next, and fails when something the
// sandboxed server planted ran: a hook, an fsmonitor command.
func gitStatusRunsNothing(t *testing.T, dir, mark string) {
	t.Helper()
	for _, args := range [][]string{{"status"}, {"checkout", "-q", "-b", "next"}} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t")
		_ = cmd.Run()
	}
	if b, err := os.ReadFile(mark); err == nil {
		t.Errorf("git ran what the sandboxed server planted: %s", b)
	}
}

// writeProjectAttack runs script with write-project in project: it must
// print wrote (the project is writable) and "done" (it ran to its end),
// and none of refused (what the sandbox must have stopped).
func writeProjectAttack(t *testing.T, project, script, wrote string, refused ...string) {
	t.Helper()
	out := boxedSh(t, project, project, &model.Sandbox{Profile: model.SandboxProfileWriteProject}, script)
	if !strings.Contains(out, wrote) || !strings.Contains(out, "done") {
		t.Fatalf("the project is not writable, or the script did not run:\n%s", out)
	}
	for _, s := range refused {
		if strings.Contains(out, s) {
			t.Errorf("%s:\n%s", s, out)
		}
	}
}

// TestSandboxRunsLaterStaysReadOnly: with write-project, the server can
// write the project but not what runs later: a hook, core.fsmonitor in
// .git/config, the core.hooksPath directory, .envrc, .vscode,
// .claude/settings.json, .npmrc, and those that do not exist cannot be
// created; moving .git away to plant a new one fails too. git status and
// git checkout afterwards, outside the sandbox, run nothing, and the
// placeholders are gone once the server stopped.
func TestSandboxRunsLaterStaysReadOnly(t *testing.T) {
	w := newShWorld(t)
	gitRepo(t, w.project)
	mark := filepath.Join(t.TempDir(), "ran")
	if out, err := exec.Command("git", "-C", w.project, "config", "core.hooksPath", ".githooks").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	hook := "#!/bin/sh\necho hook >> " + mark + "\n"
	script := strings.Join([]string{
		"echo ok > src.txt && echo wrote-project",
		"printf '" + hook + "' > .git/hooks/post-checkout; chmod +x .git/hooks/post-checkout",
		"printf '[core]\\n\\tfsmonitor = echo fsmonitor >> " + mark + "\\n' >> .git/config",
		"mkdir -p .githooks; printf '" + hook + "' > .githooks/post-checkout; chmod +x .githooks/post-checkout",
		"echo 'echo envrc >> " + mark + "' > .envrc",
		"mkdir -p .vscode && echo '{}' > .vscode/tasks.json",
		"mkdir -p .claude && echo '{}' > .claude/settings.json",
		"echo 'script-shell=/tmp/evil' > .npmrc",
		"mv .git .git-away && mkdir .git && echo moved-git",
		"mv .envrc .envrc-away && echo moved-envrc",
		"echo done",
	}, "; ")
	writeProjectAttack(t, w.project, script, "wrote-project", "moved-git", "moved-envrc")
	if strings.Contains(mustRead(t, filepath.Join(w.project, ".git", "config")), "fsmonitor") {
		t.Error(".git/config was written")
	}
	for _, p := range []string{".git/hooks/post-checkout", ".githooks", ".envrc", ".vscode", ".claude", ".npmrc", ".git-away"} {
		if _, err := os.Lstat(filepath.Join(w.project, p)); err == nil {
			t.Errorf("%s exists after the server stopped", p)
		}
	}
	gitStatusRunsNothing(t, w.project, mark)
}

// TestSandboxNestedRepositoryHooks: a repository nested in a write path
// keeps its hooks and configuration read-only, and cannot be moved away
// (nor can the directories leading to it) to plant another.
func TestSandboxNestedRepositoryHooks(t *testing.T) {
	w := newShWorld(t)
	nested := filepath.Join(w.project, "vendor", "lib")
	gitRepo(t, nested)
	mark := filepath.Join(t.TempDir(), "ran")
	hook := "#!/bin/sh\necho hook >> " + mark + "\n"
	script := strings.Join([]string{
		"echo ok > vendor/lib/file && echo wrote-nested",
		"printf '" + hook + "' > vendor/lib/.git/hooks/post-checkout; chmod +x vendor/lib/.git/hooks/post-checkout",
		"printf '[core]\\n\\tfsmonitor = echo fsmonitor >> " + mark + "\\n' >> vendor/lib/.git/config",
		"mv vendor vendor-away && echo moved-vendor",
		"mv vendor/lib vendor/lib-away && echo moved-lib",
		"mv vendor/lib/.git vendor/lib/.git-away && echo moved-git",
		"echo done",
	}, "; ")
	writeProjectAttack(t, w.project, script, "wrote-nested", "moved-vendor", "moved-lib", "moved-git")
	gitStatusRunsNothing(t, nested, mark)
}

// TestSandboxArgumentWithDotDot: an argument that goes through a
// directory the sandbox does not open and back ("docs/../tools/run.sh")
// still names its file inside the sandbox.
func TestSandboxArgumentWithDotDot(t *testing.T) {
	w := newShWorld(t)
	x := filepath.Join(t.TempDir(), "x")
	mustWrite(t, filepath.Join(x, "tools", "run.sh"), "echo ran-the-script\n")
	mustWrite(t, filepath.Join(x, "docs", "README"), "docs")
	out := boxedRun(t, w.project, w.project, model.DefaultSandbox(), "/bin/sh", x+"/docs/../tools/run.sh") // not filepath.Join: it cleans
	if !strings.Contains(out, "ran-the-script") {
		t.Errorf("the script was not found:\n%s", out)
	}
}

// TestSandboxWritesProjectDir: the README's own
// "write": ["${PROJECT_DIR}/out"], in the person's definition, loads and
// opens the project's out for writing, and nothing else of the project;
// with no project the sandbox opens (started in a directory nothing
// marks), it opens nothing.
func TestSandboxWritesProjectDir(t *testing.T) {
	boxtest.RequireMechanism(t)
	srv := launchtest.Server(t, "", "boxed", map[string]any{
		"command": "/bin/sh", "args": []any{"-c", "echo hi > out/file; echo evil > README; echo done"},
		"cwd": "${PROJECT_DIR}", "sandbox": map[string]any{"write": []any{"${PROJECT_DIR}/out"}},
	})
	project := srv.Config.Cwd
	mustWrite(t, filepath.Join(project, "README"), "project file")
	if err := os.Mkdir(filepath.Join(project, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func() string {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		l := For(srv)
		l.Project = project
		g, err := l.Start(Spec{Command: srv.Config.Command, Args: srv.Config.Args, Dir: project, Sandbox: srv.Config.Sandbox}, nil, w, w)
		_ = w.Close()
		if err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(r)
		_ = r.Close()
		_, _ = g.Wait()
		return string(out)
	}
	if out := run(); !strings.Contains(out, "done") {
		t.Fatalf("no project: the server did not run:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(project, "out", "file")); err == nil {
		t.Error("no project: ${PROJECT_DIR}/out was opened")
	}
	mustWrite(t, filepath.Join(project, ".mcp.json"), "{}") // now it is a project
	out := run()
	if got, err := os.ReadFile(filepath.Join(project, "out", "file")); err != nil || string(got) != "hi\n" {
		t.Errorf("${PROJECT_DIR}/out was not written: %q %v\n%s", got, err, out)
	}
	if got := mustRead(t, filepath.Join(project, "README")); got != "project file" {
		t.Errorf("the rest of the project was written: %q", got)
	}
}

// fakePyenv plants a pyenv-style tree under root: a shim as pyenv
// writes them, a manager whose which and exec name versions/9.9's
// interpreter, and that interpreter (a script saying it ran).
func fakePyenv(t *testing.T, root string) {
	t.Helper()
	shim := "#!/usr/bin/env bash\nset -e\n[ -n \"$PYENV_DEBUG\" ] && set -x\n\nprogram=\"${0##*/}\"\n\nexport PYENV_ROOT=\"" + root + "\"\n" +
		"exec \"" + root + "/libexec/pyenv\" exec \"$program\" \"$@\"\n"
	manager := "#!/bin/sh\ncase \"$1\" in\nwhich) echo \"$PYENV_ROOT/versions/9.9/bin/$2\" ;;\nexec) shift; n=$1; shift; exec \"$PYENV_ROOT/versions/9.9/bin/$n\" \"$@\" ;;\nesac\n"
	for path, text := range map[string]string{
		filepath.Join(root, "shims", "python3"):                  shim,
		filepath.Join(root, "libexec", "pyenv"):                  manager,
		filepath.Join(root, "versions", "9.9", "bin", "python3"): "#!/bin/sh\necho \"real interpreter: $*\"\n",
	} {
		mustWrite(t, path, text)
		if err := os.Chmod(path, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSandboxVersionManagerShim: a server whose program is a pyenv-style
// shim runs sandboxed: the manager, asked which interpreter the shim
// runs, names it, and the sandbox runs that interpreter.
func TestSandboxVersionManagerShim(t *testing.T) {
	w := newShWorld(t)
	root := filepath.Join(w.home, ".pyenv")
	fakePyenv(t, root)
	r, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	l := Launcher{Server: "py", Project: w.project}
	g, err := l.Start(Spec{Command: "python3", Args: []string{"server.py"}, Env: map[string]string{"PATH": filepath.Join(root, "shims") + ":/usr/bin:/bin"}, Dir: w.project, Sandbox: model.DefaultSandbox()}, nil, wr, wr)
	_ = wr.Close()
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(r)
	_ = r.Close()
	_, _ = g.Wait()
	if !strings.Contains(string(out), "real interpreter: server.py") {
		t.Errorf("the shim's interpreter did not run:\n%s", out)
	}
}

// TestSandboxRealPyenv: this machine's python3 is a real pyenv shim (as
// on many people's machines): it runs sandboxed. Skipped where python3 is
// no pyenv shim.
func TestSandboxRealPyenv(t *testing.T) {
	boxtest.RequireMechanism(t)
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	if b, err := os.ReadFile(py); err != nil || !strings.Contains(string(b), "libexec/pyenv\" exec") {
		t.Skip("python3 is no pyenv shim here")
	}
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, ".mcp.json"), "{}")
	out := boxedRun(t, dir, dir, model.DefaultSandbox(), "python3", "-c", "import sys; print('python', sys.version_info[0])")
	if !strings.Contains(out, "python 3") {
		t.Errorf("pyenv's python3 did not run sandboxed:\n%s", out)
	}
}
