package sandbox

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// osFacts are the facts of a real tree under a test's temporary
// directory: a home holding a project (a repository unless bare), the
// program a file in /usr. Paths are judged by the real filesystem, links
// and all, as the launcher gathers them.
func osFacts(t *testing.T, bare bool) (Facts, string, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	project := filepath.Join(home, "src", "proj")
	mkdir(t, project)
	if bare { // a project, but no repository
		write(t, filepath.Join(project, ".mcp.json"), "{}")
	} else {
		mkdir(t, filepath.Join(project, ".git", "hooks"))
		write(t, filepath.Join(project, ".git", "config"), "[core]\n\tbare = false\n")
	}
	real := func(p string) string {
		r, err := filepath.EvalSymlinks(p)
		if err != nil {
			return ""
		}
		return r
	}
	f := Facts{
		GOOS: "linux", Home: home, Project: project, RunsIn: project, TempDir: filepath.Join(root, "tmp"),
		Program: model.Program{Command: "cat", Path: "/usr/bin/cat", Real: "/usr/bin/cat"},
		Exists:  func(p string) bool { _, err := os.Lstat(p); return err == nil },
		Real:    real,
		IsFile:  func(p string) bool { st, err := os.Stat(p); return err == nil && st.Mode().IsRegular() },
		IsDir:   func(p string) bool { st, err := os.Stat(p); return err == nil && st.IsDir() },
		ReadDir: os.ReadDir,
		Lstat:   os.Lstat,
		ReadHead: func(p string, n int) ([]byte, error) {
			f, err := os.Open(p)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			return io.ReadAll(io.LimitReader(f, int64(n)))
		},
	}
	return f, home, project
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	mkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, at string) {
	t.Helper()
	mkdir(t, filepath.Dir(at))
	if err := os.Symlink(target, at); err != nil {
		t.Fatal(err)
	}
}

func droppedWhy(p Profile, path string) string {
	for _, d := range p.Dropped {
		if d.Path == path {
			return d.Reason
		}
	}
	return ""
}

func opens(p Profile, path string) bool { return under(path, p.Read) || under(path, p.Write) }

// TestResolveListedLinks: a listed path is judged and opened as what it
// reaches: a link in the project leading out of it is dropped ("outside
// the project"), one reaching a closed path is dropped ("never opened"),
// one that leads nowhere ("does not exist"); a link outside the project
// opens its target, and the link is made inside the sandbox.
func TestResolveListedLinks(t *testing.T) {
	f, home, project := osFacts(t, false)
	write(t, filepath.Join(home, ".ssh", "id_rsa"), "key")
	write(t, filepath.Join(home, ".bashrc"), "rc")
	mkdir(t, filepath.Join(project, "real-out"))
	mkdir(t, filepath.Join(home, "data", "v2"))
	link(t, "../..", filepath.Join(project, "assets"))
	link(t, filepath.Join(home, ".bashrc"), filepath.Join(project, "build"))
	link(t, filepath.Join(home, ".ssh"), filepath.Join(project, "keys"))
	link(t, "real-out", filepath.Join(project, "out"))
	link(t, "v2", filepath.Join(home, "data", "current"))
	link(t, "nowhere", filepath.Join(project, "dangling"))
	j := func(s string) string { return filepath.Join(project, s) }
	box := &model.Sandbox{
		Profile: model.SandboxProfileDefault,
		Read:    []string{j("keys"), filepath.Join(home, "data", "current"), j("dangling")},
		Write:   []string{j("assets"), j("build"), j("out"), filepath.Join(home, ".ssh")},
	}
	p := Resolve(box, f)
	for path, why := range map[string]string{
		j("assets"): ReasonOutside, j("build"): ReasonOutside, j("keys"): ReasonNever,
		j("dangling"): ReasonMissing, filepath.Join(home, ".ssh"): ReasonNever,
	} {
		if got := droppedWhy(p, path); got != why {
			t.Errorf("%s: dropped as %q, want %q (dropped %+v)", path, got, why, p.Dropped)
		}
	}
	if opens(p, home) || opens(p, filepath.Join(home, ".bashrc")) || opens(p, filepath.Join(home, ".ssh")) {
		t.Errorf("opened what a link reaches outside: read %v write %v", p.Read, p.Write)
	}
	if !slices.Contains(p.Write, j("real-out")) || !slices.Contains(p.Read, filepath.Join(home, "data", "v2")) {
		t.Errorf("a link inside the project, or outside it, does not open its target: read %v write %v", p.Read, p.Write)
	}
	if !slices.Contains(p.Links, Link{At: filepath.Join(home, "data", "current"), To: filepath.Join(home, "data", "v2")}) {
		t.Errorf("links %v", p.Links)
	}
}

// TestResolveLinkedArguments: an argument that is a link opens only its
// file's own package: never a file alone in the home directory or a
// direct child of it, nor a target outside the project when the link is
// in it; an argument that is no link opens its package as before; one
// with ".." is given to the sandbox as the file it reaches.
func TestResolveLinkedArguments(t *testing.T) {
	f, home, project := osFacts(t, false)
	write(t, filepath.Join(home, ".bash_history"), "h")
	write(t, filepath.Join(home, ".claude", ".credentials.json"), "c")
	write(t, filepath.Join(home, "src", "other", "secret.env"), "s")
	write(t, filepath.Join(project, "lib", "real.js"), "x")
	write(t, filepath.Join(home, "tools", "v2", "server.js"), "x")
	mkdir(t, filepath.Join(home, "tools", "docs"))
	link(t, "../../.bash_history", filepath.Join(project, "data.json"))
	link(t, filepath.Join(home, ".claude", ".credentials.json"), filepath.Join(project, "schema.json"))
	link(t, "../other/secret.env", filepath.Join(project, "sibling.env"))
	link(t, "lib/real.js", filepath.Join(project, "main.js"))
	link(t, "v2", filepath.Join(home, "tools", "current"))
	link(t, "../.bash_history", filepath.Join(home, "tools", "hist"))
	f.Program.Args = []string{"data.json", "schema.json", "sibling.env", "main.js", filepath.Join(home, "tools", "current", "server.js"), home + "/tools/docs/../v2/server.js", "--flag", filepath.Join(home, "tools", "hist")}
	p := Resolve(model.DefaultSandbox(), f)
	for _, closed := range []string{home, filepath.Join(home, ".bash_history"), filepath.Join(home, ".claude"), filepath.Join(home, ".claude", ".credentials.json"), filepath.Join(home, "src", "other")} {
		if opens(p, closed) {
			t.Errorf("opened %s: read %v", closed, p.Read)
		}
	}
	j := func(s string) string { return filepath.Join(project, s) }
	for arg, why := range map[string]string{j("data.json"): ReasonOutside, j("schema.json"): ReasonOutside, j("sibling.env"): ReasonOutside, filepath.Join(home, "tools", "hist"): ReasonTooMuch} {
		if got := droppedWhy(p, arg); got != why {
			t.Errorf("%s: dropped as %q, want %q", arg, got, why)
		}
	}
	if !opens(p, filepath.Join(project, "lib", "real.js")) || !opens(p, filepath.Join(home, "tools", "v2", "server.js")) {
		t.Errorf("a link's own package is not open: %v", p.Read)
	}
	if got := p.Args[5]; got != filepath.Join(home, "tools", "v2", "server.js") {
		t.Errorf("argument with ..: %q", got)
	}
	if !slices.Equal(p.Args[:5], f.Program.Args[:5]) || !slices.Equal(p.Args[6:], f.Program.Args[6:]) {
		t.Errorf("other arguments changed: %v", p.Args)
	}
}

// TestResolveProject: the home directory, an ancestor of it, / and a
// directory nothing marks are never the project (the views get why); a
// directory in a repository, or with a .mcp.json, is.
func TestResolveProject(t *testing.T) {
	f, home, project := osFacts(t, false)
	plain := filepath.Join(home, "Downloads")
	mkdir(t, plain)
	sub := filepath.Join(project, "pkg", "sub")
	mkdir(t, sub)
	marked := filepath.Join(home, "work")
	write(t, filepath.Join(marked, ".mcp.json"), "{}")
	link(t, home, filepath.Join(home, "src", "me"))
	write(t, filepath.Join(home, ".git", "HEAD"), "dotfiles repository") // must not make ~/Downloads a project
	for dir, want := range map[string]string{
		home: "", filepath.Dir(home): "", "/": "", plain: "", filepath.Join(home, "src", "me"): "",
		project: project, sub: sub, marked: marked,
	} {
		f.Project = dir
		p := Resolve(&model.Sandbox{Profile: model.SandboxProfileWriteProject}, f)
		if p.Project != want {
			t.Errorf("%s: project %q, want %q", dir, p.Project, want)
		}
		if want == "" && (p.NoProject == "" || opens(p, dir) || opens(p, home)) {
			t.Errorf("%s: no project, why %q, read %v write %v", dir, p.NoProject, p.Read, p.Write)
		}
	}
	f.Project = plain
	box := &model.Sandbox{Profile: model.SandboxProfileDefault, Write: []string{filepath.Join(plain, "out")}, ProjectWrite: []bool{true}}
	mkdir(t, filepath.Join(plain, "out"))
	if p := Resolve(box, f); droppedWhy(p, filepath.Join(plain, "out")) != ReasonNoProject {
		t.Errorf("${PROJECT_DIR}/out with no project: %+v", p.Dropped)
	}
}

// TestResolveRunsLater: inside a writable project what runs later is
// read-only (what exists) or a placeholder (what does not), .git and the
// repository are pinned, core.hooksPath joins the list, a nested
// repository gets the same, and a write path that is itself something
// that runs later becomes read-only.
func TestResolveRunsLater(t *testing.T) {
	f, home, project := osFacts(t, false)
	write(t, filepath.Join(project, ".git", "config"), "[core]\n\thooksPath = .githooks ; set by husky once\n[include]\n\tpath = more.conf\n")
	write(t, filepath.Join(project, ".git", "more.conf"), "[core] hookspath = \"tools/hooks\"\n")
	mkdir(t, filepath.Join(project, "tools"))
	write(t, filepath.Join(project, ".envrc"), "export X=1")
	mkdir(t, filepath.Join(project, ".vscode"))
	nested := filepath.Join(project, "vendor", "lib")
	mkdir(t, filepath.Join(nested, ".git", "hooks"))
	write(t, filepath.Join(nested, ".git", "config"), "")
	mkdir(t, filepath.Join(project, "a", "b", "c", "deep", ".git")) // 4 below: beyond the search
	mkdir(t, filepath.Join(project, "node_modules", "x", ".git"))
	mkdir(t, filepath.Join(project, ".claude", "commands"))
	p := Resolve(&model.Sandbox{Profile: model.SandboxProfileWriteProject}, f)
	j := func(s string) string { return filepath.Join(project, s) }
	for _, ro := range []string{j(".git/hooks"), j(".git/config"), j(".envrc"), j(".vscode"), j(".claude"), filepath.Join(nested, ".git", "hooks"), filepath.Join(nested, ".git", "config")} {
		if !slices.Contains(p.ReadOnly, ro) {
			t.Errorf("read-only %v lacks %s", p.ReadOnly, ro)
		}
	}
	var holders []string
	dirs := []string{".githooks", "hooks", ".husky", ".idea", ".mcpdeck", ".config", ".git", ".claude", ".vscode"}
	for _, ph := range p.Placeholders {
		holders = append(holders, ph.Path)
		if ph.Dir != slices.Contains(dirs, filepath.Base(ph.Path)) {
			t.Errorf("placeholder %s: dir %v", ph.Path, ph.Dir)
		}
	}
	for _, want := range []string{j(".githooks"), j("tools/hooks"), j(".npmrc"), j(".bashrc"), j(".mcp.json"), j(".husky"), filepath.Join(nested, ".envrc")} {
		if !slices.Contains(holders, want) {
			t.Errorf("placeholders %v lack %s", holders, want)
		}
	}
	for _, pin := range []string{j(".git"), j("vendor"), nested, filepath.Join(nested, ".git")} {
		if !slices.Contains(p.Pinned, pin) {
			t.Errorf("pinned %v lacks %s", p.Pinned, pin)
		}
	}
	if slices.ContainsFunc(p.Pinned, func(s string) bool { return strings.Contains(s, "deep") || strings.Contains(s, "node_modules") }) {
		t.Errorf("searched too deep, or node_modules: %v", p.Pinned)
	}
	// Listed on its own, a path inside .claude is read-only too.
	box := &model.Sandbox{Profile: model.SandboxProfileDefault, Write: []string{j(".claude/commands"), j("tools")}}
	if q := Resolve(box, f); droppedWhy(q, j(".claude/commands")) != ReasonRunsLater || slices.Contains(q.Write, j(".claude/commands")) ||
		!opens(q, j(".claude/commands")) || !slices.Contains(q.Write, j("tools")) {
		t.Errorf("a write path inside .claude stays writable: write %v read %v dropped %+v", q.Write, q.Read, q.Dropped)
	}
	if !slices.Contains(p.Write, project) || slices.Contains(holders, j(".config")) {
		t.Errorf("write %v, placeholders %v (.config/git is git's only in a home)", p.Write, holders)
	}
	// A writable home keeps git's own configuration read-only too.
	home2 := Resolve(&model.Sandbox{Profile: model.SandboxProfileDefault, Write: []string{home}}, f)
	if !slices.ContainsFunc(home2.Placeholders, func(ph Placeholder) bool { return ph.Path == filepath.Join(home, ".config") }) {
		t.Errorf("a writable home: placeholders %v", home2.Placeholders)
	}
}

// TestResolveRunsLaterLinkedName: a name that runs later and is a link
// (or whose .git is missing) cannot be held in place: a link makes the
// whole write path read-only, with why; a project without .git gets a
// .git placeholder (a repository cannot be made there).
func TestResolveRunsLaterLinkedName(t *testing.T) {
	f, _, project := osFacts(t, true)
	write(t, filepath.Join(project, "real.envrc"), "x")
	p := Resolve(&model.Sandbox{Profile: model.SandboxProfileWriteProject}, f)
	if !slices.Contains(p.Placeholders, Placeholder{Path: filepath.Join(project, ".git"), Dir: true}) {
		t.Errorf("no .git placeholder: %v", p.Placeholders)
	}
	link(t, "real.envrc", filepath.Join(project, ".envrc"))
	p = Resolve(&model.Sandbox{Profile: model.SandboxProfileWriteProject}, f)
	if slices.Contains(p.Write, project) || !slices.Contains(p.Read, project) || droppedWhy(p, project) != ReasonLinkedName {
		t.Errorf("a linked .envrc: write %v read %v dropped %+v", p.Write, p.Read, p.Dropped)
	}
	if len(p.Placeholders) > 0 || len(p.ReadOnly) > 0 {
		t.Errorf("a read-only project keeps placeholders %v or read-only paths %v", p.Placeholders, p.ReadOnly)
	}
}

// TestNestedReposBounded: the search for nested repositories stops after
// nestedMax directories, and says so.
func TestNestedReposBounded(t *testing.T) {
	f, _, project := osFacts(t, false)
	for i := range nestedMax + 5 {
		mkdir(t, filepath.Join(project, "d", "dir"+strconv.Itoa(i)))
	}
	p := Resolve(&model.Sandbox{Profile: model.SandboxProfileWriteProject}, f)
	if !p.NestedLimit {
		t.Error("the search did not stop")
	}
}

func TestParseGitConfig(t *testing.T) {
	doc := "# comment\n[core]\n\tHooksPath = \"a b\" # trailing\n[Core \"x\"] hookspath = c\\\"d\n[include]\npath=~/inc\n[other]\nhookspath = no\nbare\n"
	var got []string
	for _, e := range parseGitConfig(doc) {
		got = append(got, e.key+"="+e.value)
	}
	want := []string{"core.hookspath=a b", "core.hookspath=c\"d", "include.path=~/inc", "other.hookspath=no", "other.bare=true"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestBwrapArgsRunsLater: what runs later is bound read-only onto itself
// and must exist (not the -try forms: gone since Resolve, the start
// fails), the pinned directories writable onto themselves, after the
// write path that holds them; links are made only where no host path
// bound in holds them.
func TestBwrapArgsRunsLater(t *testing.T) {
	p := Profile{
		Write: []string{"/h/proj", "/tmp/sbx"}, TempDir: "/tmp/sbx", Home: "/h", RunsIn: "/h/proj",
		ReadOnly: []string{"/h/proj/.git/hooks"}, Placeholders: []Placeholder{{Path: "/h/proj/.envrc"}}, Pinned: []string{"/h/proj/.git"},
		Links: []Link{{At: "/h/link", To: "/h/proj"}, {At: "/h/proj/inner", To: "/elsewhere"}, {At: "/bin", To: "/usr/bin"}},
	}
	line := strings.Join(bwrapArgs(p, []string{"/x"}, nil), " ")
	pos := func(s string) int { return strings.Index(line, s) }
	order := []string{"--bind-try /h/proj /h/proj", "--bind /h/proj/.git /h/proj/.git", "--ro-bind /h/proj/.git/hooks /h/proj/.git/hooks"}
	for i := 1; i < len(order); i++ {
		if pos(order[i-1]) < 0 || pos(order[i]) < 0 || pos(order[i-1]) > pos(order[i]) {
			t.Errorf("%q must come before %q: %s", order[i-1], order[i], line)
		}
	}
	for _, want := range []string{"--ro-bind /h/proj/.envrc /h/proj/.envrc", "--symlink /h/proj /h/link", "--symlink /usr/bin /bin"} {
		if !strings.Contains(line, want) {
			t.Errorf("lacks %q: %s", want, line)
		}
	}
	if strings.Contains(line, "/h/proj/inner") {
		t.Errorf("made a link inside a bound host path: %s", line)
	}
}

// TestViewLines: the view names the project, the shim's resolution, the
// private /tmp, what stays read-only in each write path (* for what
// cannot be created), each path not opened with why, the network, and
// the environment once the launcher says; home is ~.
func TestViewLines(t *testing.T) {
	p := Profile{
		Project: "/h/proj", Read: []string{"/usr", "/h/.pyenv/versions/3.12"}, Write: []string{"/h/proj", "/tmp/sbx"}, TempDir: "/tmp/sbx",
		ReadOnly: []string{"/h/proj/.git/hooks", "/h/proj/lib/.git/config"}, Placeholders: []Placeholder{{Path: "/h/proj/.envrc"}},
		Dropped: []Drop{{Path: "/h/.ssh", Reason: ReasonNever}, {Path: "/h/proj/assets", Target: "/h", Reason: ReasonOutside}},
		Shim:    &Shim{Manager: "pyenv", Shim: "/h/.pyenv/shims/python3", Interpreter: "/h/.pyenv/versions/3.12/bin/python3"},
		Network: model.SandboxNetwork{Hosts: []string{"api.github.com"}}, NestedLimit: true,
	}
	var got []string
	for _, l := range p.View().Lines("/h") {
		got = append(got, l.Label+"|"+l.Value)
	}
	want := []string{
		"Project|~/proj (writable)",
		"Runs|~/.pyenv/shims/python3 → pyenv → ~/.pyenv/versions/3.12/bin/python3",
		"Reads|/usr", "|~/.pyenv/versions/3.12",
		"Writes|~/proj", "|private /tmp",
		"Read-only inside|~/proj: .envrc*, .git/hooks, lib/.git/config", "|(* does not exist yet and cannot be created)",
		"Nested repositories|searched in the first 2000 directories only: those beyond are not kept read-only",
		"Not opened|~/.ssh: never opened", "|~/proj/assets → ~: outside the project",
		"Network|api.github.com",
	}
	if !slices.Equal(got, want) {
		t.Errorf("lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	p.EnvNames = []string{"PATH", "LANG"}
	if l := p.View().Lines("/h"); l[len(l)-1] != (Line{"Environment", "PATH, LANG"}) {
		t.Errorf("environment: %v", l[len(l)-1])
	}
	if v := (Profile{NoProject: "~ is your home directory"}).View(); v.Lines("/h")[0].Value != "none: ~ is your home directory" || !slices.Equal(v.Write, []string{PrivateTemp}) {
		t.Errorf("no project: %+v", v)
	}
}

// TestResolveHidesWhereAClosedPathReallyIs: ~/.ssh that is a link to
// another directory of the home is masked there (a mask on the link would
// land wherever it points), and listing that directory opens nothing.
func TestResolveHidesWhereAClosedPathReallyIs(t *testing.T) {
	f, home, _ := osFacts(t, false)
	write(t, filepath.Join(home, "keys", "ssh", "id_rsa"), "key")
	link(t, "keys/ssh", filepath.Join(home, ".ssh"))
	p := Resolve(&model.Sandbox{Profile: model.SandboxProfileDefault, Read: []string{home, filepath.Join(home, "keys", "ssh")}}, f)
	if !slices.Contains(p.Hide, filepath.Join(home, "keys", "ssh")) || slices.Contains(p.Hide, filepath.Join(home, ".ssh")) {
		t.Errorf("hide %v", p.Hide)
	}
	if droppedWhy(p, filepath.Join(home, "keys", "ssh")) != ReasonNever {
		t.Errorf("dropped %+v", p.Dropped)
	}
}
