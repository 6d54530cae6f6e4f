package sandbox

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// Facts are what Resolve needs to know about this machine and this
// server; the launcher gathers them (FactsFor), tests make them up.
type Facts struct {
	GOOS    string // "linux", "darwin"
	Home    string // the person's home directory
	Project string // the project's root, "" outside a project
	RunsIn  string // the directory the server starts in
	// TempDir is the server's private temporary directory, made by the
	// launcher for this start and removed when the server stops.
	TempDir string
	// Program is the server's program as the one resolver found it.
	Program model.Program
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
	// AgentSocket is $SSH_AUTH_SOCK ("" when unset): it stays closed.
	AgentSocket string
	// IsSocket reports a unix socket (sandbox.sockets lists only those).
	IsSocket func(string) bool
	// Exists reports whether a path exists; Real resolves its symbolic
	// links ("" when it cannot); IsFile reports a regular file.
	Exists func(string) bool
	Real   func(string) string
	IsFile func(string) bool
}

// Profile is a resolved sandbox: absolute, cleaned paths, each list
// without a path another entry already covers.
type Profile struct {
	Read  []string // read-only
	Write []string // read and write
	// Hide and HideFiles are closed directories and files inside an open
	// path (~/.ssh when ~ is listed): the mechanism masks them.
	Hide      []string
	HideFiles []string
	// Dropped are paths the definition listed that the never list closes:
	// they stay closed, and the UIs may say so.
	Dropped []string
	Network model.SandboxNetwork
	TempDir string
	Home    string
	RunsIn  string
	// Self is mcpdeck's own executable when the sandbox runs the network
	// shim ("" otherwise).
	Self string
	// Sockets are the unix sockets the definition lists that exist, and
	// UnixSockets whether the server may make unix sockets at all: only
	// when the definition lists any (openSockets).
	Sockets     []string
	UnixSockets bool
}

// Resolve works out the profile of box for a server described by f:
//   - read: the system (systemDirs), the server's own package (the
//     directory holding its program or the script it runs: the outermost
//     node_modules, a Python virtual environment, else the file's
//     directory) and its runtimes' prefixes, the project, and box.Read;
//   - write: f.TempDir (the server's /tmp), box.Write, and the project
//     with the write-project profile;
//   - never, even when listed: Never(f) (keys, cloud credentials, the
//     keychain, mcpdeck's own state).
//
// A directory that would open too much at once (/, the home directory,
// one of its ancestors or direct children such as ~/.local) is never
// opened for a program found in it: only that file is.
func Resolve(box *model.Sandbox, f Facts) Profile {
	p := Profile{Network: box.Network, TempDir: f.TempDir, Home: f.Home, RunsIn: f.RunsIn, Self: f.Self}
	var read, write []string
	read = append(read, systemDirs(f)...)
	read = append(read, packageDirs(f)...)
	if f.Self != "" {
		read = append(read, f.Self)
	}
	if f.Project != "" {
		if box.Profile == model.SandboxProfileWriteProject {
			write = append(write, f.Project)
		} else {
			read = append(read, f.Project)
		}
	}
	read = append(read, box.Read...)
	write = append(write, box.Write...)
	never := Never(f)
	keep := func(list []string) []string {
		var out []string
		for _, path := range list {
			path = filepath.Clean(path)
			if under(path, never) {
				p.Dropped = append(p.Dropped, path)
				continue
			}
			out = append(out, path)
		}
		return out
	}
	p.Write = minimal(keep(write), nil)
	if f.TempDir != "" {
		p.Write = minimal(append(p.Write, f.TempDir), nil)
	}
	p.Read = minimal(keep(read), p.Write)
	p.Sockets, p.UnixSockets = openSockets(box, f)
	for _, n := range never {
		if f.Exists != nil && !f.Exists(n) {
			continue
		}
		switch {
		case !under(n, p.Read) && !under(n, p.Write):
		case f.IsFile != nil && f.IsFile(n), f.IsSocket != nil && f.IsSocket(n): // a socket is masked as a file is
			p.HideFiles = append(p.HideFiles, n)
		default:
			p.Hide = append(p.Hide, n)
		}
	}
	return p
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

// systemDirs are the operating system's read-only directories that exist.
func systemDirs(f Facts) []string {
	var dirs []string
	switch f.GOOS {
	case "darwin":
		dirs = []string{"/usr", "/bin", "/sbin", "/System", "/Library", "/private/etc", "/etc", "/opt", "/nix", "/private/var/db/timezone", "/var/db/timezone"}
	default:
		dirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix", "/run/current-system"}
	}
	var out []string
	for _, d := range dirs {
		if f.Exists == nil || f.Exists(d) {
			out = append(out, d)
		}
	}
	return out
}

// packageDirs are the server's own package and its runtimes' prefixes.
func packageDirs(f Facts) []string {
	var files []string
	for _, c := range []string{f.Program.Path, f.Program.Real} {
		if c != "" {
			files = append(files, c)
		}
	}
	for _, a := range f.Program.Args {
		if a == "" || strings.HasPrefix(a, "-") || f.IsFile == nil {
			continue
		}
		if !filepath.IsAbs(a) {
			a = filepath.Join(f.RunsIn, a)
		}
		if f.IsFile(a) {
			files = append(files, a)
			if f.Real != nil {
				if r := f.Real(a); r != "" {
					files = append(files, r)
				}
			}
		}
	}
	var out []string
	for _, file := range files {
		out = append(out, f.openable(packageRoot(file, f), file))
	}
	for _, rt := range f.Runtimes {
		dir := filepath.Dir(rt)
		if filepath.Base(dir) == "bin" {
			dir = filepath.Dir(dir)
		}
		out = append(out, f.openable(dir, rt))
	}
	return out
}

// packageRoot is the directory a file of a package lives in as a whole:
// its outermost node_modules (which holds the package's dependencies), a
// Python virtual environment (the directory with pyvenv.cfg), else the
// file's own directory.
func packageRoot(file string, f Facts) string {
	parts := strings.Split(filepath.Clean(file), string(filepath.Separator))
	for i, part := range parts[:len(parts)-1] {
		if part == "node_modules" {
			return string(filepath.Separator) + filepath.Join(parts[:i+1]...)
		}
	}
	dir := filepath.Dir(file)
	for d := dir; f.Exists != nil && d != filepath.Dir(d); d = filepath.Dir(d) {
		if f.Exists(filepath.Join(d, "pyvenv.cfg")) {
			return d
		}
	}
	return dir
}

// openable is dir when opening it whole is reasonable, else file alone:
// never /, the home directory, its ancestors or direct children.
func (f Facts) openable(dir, file string) string {
	dir = filepath.Clean(dir)
	home := filepath.Clean(f.Home)
	switch {
	case dir == string(filepath.Separator), f.Home != "" && (within(home, dir) || filepath.Dir(dir) == home):
		return file
	}
	return dir
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

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
