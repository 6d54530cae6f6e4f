package sandbox

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// Facts are what Resolve needs to know about this machine and this
// server; the launcher gathers them (FactsFor), tests make them up.
type Facts struct {
	GOOS string // "linux", "darwin"
	Home string // the person's home directory
	// Project is the root mcpdeck loaded the project from (the nearest
	// .mcp.json, else where mcpdeck started), "" outside one; Resolve
	// decides whether it is a project a sandbox may open (projectOf).
	Project string
	RunsIn  string // the directory the server starts in
	// TempDir is the server's private temporary directory, made by the
	// launcher for this start and removed when the server stops.
	TempDir string
	// Program is the server's program as the one resolver found it.
	Program model.Program
	// Interpreter, when set, is the real interpreter a version manager's
	// shim (Program) hands over to: the sandbox runs it instead of the
	// shim (Shim says how it was found).
	Interpreter string
	Shim        *Shim
	// Runtimes are interpreters the program may hand over to (node,
	// python, uv...), as found in the server's PATH, symbolic links
	// resolved.
	Runtimes []string
	// Own are mcpdeck's own directories (config, credentials, state,
	// cache): never open to a server.
	Own []string
	// Self is mcpdeck's own executable, readable when the sandbox runs
	// the network shim (it is the shim).
	Self string
	// RuntimeDir is $XDG_RUNTIME_DIR ("" when unset): it stays closed,
	// with the sockets it holds (D-Bus, keyring, agents, podman).
	RuntimeDir string
	// GitConfigs are the person's own git configuration files (global
	// and system): a core.hooksPath in them names a directory in every
	// repository, which stays read-only like .git/hooks.
	GitConfigs []string
	// AgentSocket is $SSH_AUTH_SOCK ("" when unset): it stays closed.
	AgentSocket string
	// IsSocket reports a unix socket (sandbox.sockets lists only those).
	IsSocket func(string) bool
	// Exists reports whether a path exists (a dangling link does); Real
	// resolves every symbolic link in it ("" when it cannot: the path
	// does not exist); IsFile reports a regular file.
	Exists func(string) bool
	Real   func(string) string
	IsFile func(string) bool
	// IsDir reports a directory (links followed); ReadDir lists one (nil:
	// nested repositories are not looked for); ReadHead reads at most n
	// bytes of a file (a script's first line, git's configuration).
	IsDir    func(string) bool
	ReadDir  func(string) ([]fs.DirEntry, error)
	ReadHead func(path string, n int) ([]byte, error)
	// Lstat describes a path without following a final link (nil:
	// Exists and Real answer instead).
	Lstat func(string) (fs.FileInfo, error)
}

// Profile is a resolved sandbox: absolute paths, each what the path a
// definition or the program named reaches (every symbolic link
// resolved), each list without a path another entry already covers.
type Profile struct {
	Read  []string // read-only
	Write []string // read and write
	// ReadOnly are paths inside a write path that stay read-only because
	// something outside the sandbox runs or obeys them later (RunsLater):
	// .git/hooks, .git/config, .envrc, .vscode... Placeholders are those
	// that do not exist: they must not be created, so the mechanism keeps
	// an empty read-only file or directory there while the server runs
	// (Linux: mcpdeck makes it, bubblewrap binds it). Pinned are
	// directories inside a write path that must stay where they are (a
	// repository, its .git, the directories leading to it): renaming one
	// away would take its read-only paths along and leave room for new
	// ones.
	ReadOnly     []string
	Placeholders []Placeholder
	Pinned       []string
	// Hide and HideFiles are closed directories and files inside an open
	// path (~/.ssh when ~ is listed): the mechanism masks them.
	Hide      []string
	HideFiles []string
	// Links are paths the server is told about (where it runs, its
	// program, a listed path) that are symbolic links: the mechanism
	// opens their targets, and makes the link inside the sandbox where
	// nothing opened holds it.
	Links []Link
	// Dropped are paths the definition or the program's arguments named
	// that the sandbox does not open as asked, each with why: they stay
	// closed (or read-only), and the views say so.
	Dropped []Drop
	// Project is the project the sandbox opens ("" for none) and
	// NoProject why there is none, in words, when mcpdeck has a project
	// root the sandbox refuses (the home directory, no .mcp.json or
	// repository below it).
	Project   string
	NoProject string
	// Program is the file the sandbox runs (the interpreter behind a
	// version manager's shim, else the program) and Args its arguments
	// as the sandbox sees them: a path with ".." in it is given as the
	// file it reaches, since a directory it passes through need not be
	// in the sandbox.
	Program string
	Args    []string
	// Shim says how a version manager's shim was resolved, nil for none.
	Shim *Shim
	// NestedLimit is set when the search for nested repositories inside
	// a write path stopped early (too many directories): repositories
	// beyond it are not protected, and the views say so.
	NestedLimit bool
	// EnvNames are the names of the environment variables the server
	// receives; filled by the launcher when it builds the environment
	// ("" until then).
	EnvNames []string
	Network  model.SandboxNetwork
	TempDir  string
	Home     string
	RunsIn   string
	// Self is mcpdeck's own executable when the sandbox runs the network
	// shim ("" otherwise).
	Self string
	// Sockets are the unix sockets the definition lists that exist, and
	// UnixSockets whether the server may make unix sockets at all: only
	// when the definition lists any (openSockets).
	Sockets     []string
	UnixSockets bool
}

// Link is a symbolic link at At whose target is To (resolved).
type Link struct{ At, To string }

// Placeholder is a path that must not be created inside a write path:
// an empty read-only file, or a directory when Dir.
type Placeholder struct {
	Path string
	Dir  bool
}

// Shim is a version manager's shim resolved to the interpreter it runs.
type Shim struct {
	Manager     string // "pyenv", "asdf", "mise", "volta"...
	Shim        string // the shim's file
	Interpreter string // the file it runs, as the manager said
}

// Drop is one path not opened as asked: Path as named, Target what it
// reaches when that differs, Reason in words.
type Drop struct {
	Path   string `json:"path"`
	Target string `json:"target,omitempty"`
	Reason string `json:"reason"`
}

// The reasons a path is dropped.
const (
	ReasonNever      = "never opened"
	ReasonOutside    = "outside the project"
	ReasonMissing    = "does not exist"
	ReasonNoProject  = "no project"
	ReasonTooMuch    = "too much at once"
	ReasonRunsLater  = "read-only: something outside the sandbox runs it later"
	ReasonLinkedName = "a symbolic link that runs later: the whole directory stays read-only"
)

// Resolve works out the profile of box for a server described by f:
//   - read: the system (systemDirs), the server's own package (the
//     directory holding its program or the script it runs: the outermost
//     node_modules, a Python virtual environment, else the file's
//     directory) and its runtimes' prefixes, the project, and box.Read;
//   - write: f.TempDir (the server's /tmp), box.Write, and the project
//     with the write-project profile, except what runs later (RunsLater),
//     which stays read-only inside them;
//   - never, even when listed: Never(f) (keys, cloud credentials, the
//     keychain, mcpdeck's own state).
//
// Every path is judged as what it reaches, every symbolic link resolved,
// and the profile opens that: a link in the project cannot lead a listed
// path outside it, nor onto a closed path. A directory that would open
// too much at once (/, the home directory, one of its ancestors or direct
// children such as ~/.local) is never opened for a file found in it.
func Resolve(box *model.Sandbox, f Facts) Profile {
	r := newResolver(f)
	p := &r.p
	p.Network, p.TempDir, p.Home, p.Self, p.Shim = box.Network, f.TempDir, f.Home, f.Self, f.Shim
	p.Project, p.NoProject = r.projectOf()
	p.RunsIn = r.runsIn()
	var read, write []string
	read = append(read, r.systemDirs()...)
	read = append(read, r.packageDirs()...)
	p.Program, p.Args = r.program()
	if f.Self != "" {
		read = append(read, r.opened(f.Self)...)
	}
	if p.Project != "" {
		if box.Profile == model.SandboxProfileWriteProject {
			write = append(write, p.Project)
		} else {
			read = append(read, p.Project)
		}
		if lit := filepath.Clean(f.Project); lit != p.Project {
			p.Links = append(p.Links, Link{At: lit, To: p.Project})
		}
	}
	for i, x := range box.Read {
		read = append(read, r.listed(x, box.NamesProject(false, i))...)
	}
	for i, x := range box.Write {
		write = append(write, r.listed(x, box.NamesProject(true, i))...)
	}
	p.Write = minimal(write, nil)
	if f.TempDir != "" {
		p.Write = minimal(append(p.Write, f.TempDir), nil)
	}
	read = append(read, r.protect()...)
	p.Read = minimal(read, p.Write)
	p.Sockets, p.UnixSockets = openSockets(box, f)
	r.hide()
	return *p
}

// resolver is one Resolve under way.
type resolver struct {
	f     Facts
	p     Profile
	homes []string // the home directory as named and as it really is
	never []string // Never(f), each as named and as it really is
}

func newResolver(f Facts) *resolver {
	r := &resolver{f: f}
	if f.Home != "" {
		r.homes = r.both(f.Home)
	}
	for _, n := range Never(f) {
		r.never = append(r.never, r.both(n)...)
	}
	return r
}

// real is where path leads, every link resolved, "" when it does not
// exist. Without a resolver (tests of rules that do not depend on it)
// every path is itself.
func (r *resolver) real(path string) string {
	if r.f.Real == nil {
		return filepath.Clean(path)
	}
	return r.f.Real(path)
}

// both is path cleaned and, when it differs, where it really is.
func (r *resolver) both(path string) []string {
	path = filepath.Clean(path)
	out := []string{path}
	if t := r.real(path); t != "" && t != path {
		out = append(out, t)
	}
	return out
}

func (r *resolver) exists(path string) bool { return r.f.Exists == nil || r.f.Exists(path) }

func (r *resolver) isFile(path string) bool { return r.f.IsFile != nil && r.f.IsFile(path) }

func (r *resolver) isDir(path string) bool {
	if r.f.IsDir != nil {
		return r.f.IsDir(path)
	}
	return r.exists(path) && !r.isFile(path)
}

// closed reports whether a path is on the never list or inside it.
func (r *resolver) closed(path string) bool { return under(path, r.never) }

// tooMuch reports whether opening dir whole would open too much at once:
// /, the home directory, one of its ancestors or direct children.
func (r *resolver) tooMuch(dir string) bool {
	dir = filepath.Clean(dir)
	if dir == string(filepath.Separator) {
		return true
	}
	for _, h := range r.homes {
		if within(h, dir) || filepath.Dir(dir) == h {
			return true
		}
	}
	return false
}

// drop records that path (reaching target) is not opened, and why.
func (r *resolver) drop(path, target, reason string) {
	if target == filepath.Clean(path) {
		target = ""
	}
	d := Drop{Path: path, Target: target, Reason: reason}
	if !slices.Contains(r.p.Dropped, d) {
		r.p.Dropped = append(r.p.Dropped, d)
	}
}

// opened is what opening path opens: where it leads, unless that is
// closed or it leads nowhere; a link at path is kept so the server finds
// it where it was told.
func (r *resolver) opened(path string) []string {
	path = filepath.Clean(path)
	t := r.real(path)
	switch {
	case t == "":
		return nil
	case r.closed(t) || r.closed(path):
		r.drop(path, t, ReasonNever)
		return nil
	}
	if t != path {
		r.p.Links = append(r.p.Links, Link{At: path, To: t})
	}
	return []string{t}
}

// listed judges a path a definition's read or write list names:
// inProject says it was written with ${PROJECT_DIR}. A path that does not
// exist, is closed, or named inside the project but leads outside it (a
// link the repository ships) is dropped, with why.
func (r *resolver) listed(path string, inProject bool) []string {
	path = filepath.Clean(path)
	t := r.real(path)
	project := r.p.Project
	switch {
	case inProject && project == "":
		r.drop(path, "", ReasonNoProject)
		return nil
	case r.closed(path) || t != "" && r.closed(t):
		r.drop(path, t, ReasonNever)
		return nil
	case t == "":
		r.drop(path, "", ReasonMissing)
		return nil
	case (inProject || r.inProject(path)) && !within(t, project):
		r.drop(path, t, ReasonOutside)
		return nil
	}
	if t != path {
		r.p.Links = append(r.p.Links, Link{At: path, To: t})
	}
	return []string{t}
}

// inProject reports whether path, as named, is inside the project: as
// mcpdeck names the project, or where it really is.
func (r *resolver) inProject(path string) bool {
	if r.p.Project == "" {
		return false
	}
	return within(path, r.p.Project) || (r.f.Project != "" && within(path, filepath.Clean(r.f.Project)))
}

// runsIn is the directory the server starts in, where it really is.
func (r *resolver) runsIn() string {
	if r.f.RunsIn == "" {
		return ""
	}
	lit := filepath.Clean(r.f.RunsIn)
	t := r.real(lit)
	if t == "" {
		return lit
	}
	if t != lit {
		r.p.Links = append(r.p.Links, Link{At: lit, To: t})
	}
	return t
}

// systemDirs are the operating system's read-only directories that
// exist, where they really are (on a merged /usr, /bin is /usr/bin).
func (r *resolver) systemDirs() []string {
	var dirs []string
	switch r.f.GOOS {
	case "darwin":
		dirs = []string{"/usr", "/bin", "/sbin", "/System", "/Library", "/private/etc", "/etc", "/opt", "/nix", "/private/var/db/timezone", "/var/db/timezone"}
	default:
		dirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix", "/run/current-system"}
	}
	var out []string
	for _, d := range dirs {
		if r.exists(d) {
			out = append(out, r.opened(d)...)
		}
	}
	return out
}

// Never lists the paths no sandbox opens, whatever a definition lists:
// SSH and GPG keys, cloud and registry credentials, the keychain and the
// D-Bus session bus (through which it is reached), mcpdeck's own
// directories, and the host's secrets under /etc.
func Never(f Facts) []string {
	h := func(rel string) string { return filepath.Join(f.Home, rel) }
	out := []string{
		h(".ssh"), h(".aws"), h(".config/gcloud"), h(".netrc"), h(".gnupg"),
		h(".azure"), h(".kube"), h(".docker"), h(".config/gh"), h(".git-credentials"),
		h(".npmrc"), h(".pypirc"), h(".password-store"),
		h(".local/share/keyrings"), h("Library/Keychains"),
		"/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/sudoers.d", "/etc/ssh",
		"/etc/ssl/private", "/etc/krb5.keytab", "/etc/wireguard", "/etc/NetworkManager/system-connections",
		"/private/etc/ssh", "/private/etc/sudoers", "/Library/Keychains", "/run/dbus", "/var/run/dbus",
	}
	out = append(out, neverSockets(f)...)
	for _, o := range f.Own {
		if o != "" {
			out = append(out, filepath.Clean(o))
		}
	}
	return out
}

// hide lists the closed paths inside an open one, for the mechanism to
// mask, where they really are: a closed path that is (or is reached
// through) a link is masked at its target, which the never list holds
// too (a mask on the link would land wherever the link points).
func (r *resolver) hide() {
	p := &r.p
	for _, n := range r.never {
		if !r.exists(n) || r.real(n) != n {
			continue
		}
		switch {
		case !under(n, p.Read) && !under(n, p.Write):
		case r.isFile(n), r.f.IsSocket != nil && r.f.IsSocket(n): // a socket is masked as a file is
			p.HideFiles = appendNew(p.HideFiles, n)
		default:
			p.Hide = appendNew(p.Hide, n)
		}
	}
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// minimal returns paths sorted, without duplicates and without those that
// an entry of paths itself or of cover already holds.
func minimal(paths, cover []string) []string {
	s := slices.Clone(paths)
	slices.Sort(s)
	s = slices.Compact(s)
	var out []string
	for _, p := range s {
		if under(p, out) || under(p, cover) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// under reports whether path is one of dirs or inside one.
func under(path string, dirs []string) bool {
	for _, d := range dirs {
		if within(path, d) {
			return true
		}
	}
	return false
}

// within reports whether path is dir or inside it, both taken cleaned
// (lexically: callers resolve links first). It is called for every pair
// of a profile's paths and the never list, so it compares strings rather
// than computing a relative path.
func within(path, dir string) bool {
	if dir == "" {
		return false
	}
	path, dir = filepath.Clean(path), filepath.Clean(dir)
	switch {
	case path == dir:
		return true
	case filepath.IsAbs(path) != filepath.IsAbs(dir):
		return false
	case dir == ".":
		return path != ".." && !strings.HasPrefix(path, ".."+string(filepath.Separator))
	case strings.HasSuffix(dir, string(filepath.Separator)): // the root
		return strings.HasPrefix(path, dir)
	}
	return len(path) > len(dir) && path[len(dir)] == filepath.Separator && path[:len(dir)] == dir
}
