package sandbox

import (
	"bytes"
	"path/filepath"
	"strings"
)

// packageDirs are the server's own package and its runtimes' prefixes,
// each judged as what it reaches:
//   - the program (and the interpreter behind its shim): the package
//     holding the file it is named by and the one holding the file it
//     really is (a virtual environment's python is a link its
//     environment must surround); too much at once, that file alone;
//   - an argument naming a file: its package (too much at once, the file
//     alone); an argument that reaches its file through a link opens only
//     that file's own package, never the file alone in a directory too
//     large to open, nor outside the project when named in it;
//   - a script's interpreter (its #! line) and the runtimes on PATH: their
//     prefixes.
func (r *resolver) packageDirs() []string {
	f := r.f
	var out []string
	for _, prog := range []string{f.Program.Path, f.Interpreter} {
		if prog == "" {
			continue
		}
		out = append(out, r.pkgOf(prog, true)...)
		if t := r.real(prog); t != "" {
			out = append(out, r.runtimeDir(r.interpreterOf(t))...)
		}
	}
	for _, a := range f.Program.Args {
		if loc, ok := r.argPath(a); ok && r.isFile(loc) {
			out = append(out, r.pkgOf(loc, false)...)
		}
	}
	for _, rt := range f.Runtimes {
		out = append(out, r.runtimeDir(rt)...)
	}
	return out
}

// pkgOf is what a file the server runs or is given opens: its package's
// directory. program says the server is this file (it must be readable
// to run, so a file in a directory too large to open is opened alone).
func (r *resolver) pkgOf(named string, program bool) []string {
	loc, t := filepath.Clean(named), r.real(named)
	switch {
	case t == "":
		return nil
	case r.closed(t) || r.closed(loc):
		r.drop(loc, t, ReasonNever)
		return nil
	}
	var out []string
	if program || t == loc {
		// The file as named: its package (where a virtual environment's
		// python link looks for pyvenv.cfg), or itself.
		if d := packageRoot(loc, r.exists); !r.tooMuch(d) {
			out = append(out, r.opened(d)...)
		} else {
			out = append(out, r.opened(loc)...)
		}
		if t == loc {
			return out
		}
	}
	// A link: only the package of the file it reaches.
	if !program && r.inProject(loc) && !within(t, r.p.Project) {
		r.drop(loc, t, ReasonOutside)
		return out
	}
	switch d := packageRoot(t, r.exists); {
	case !r.tooMuch(d):
		out = append(out, r.opened(d)...)
	case program:
		out = append(out, r.opened(t)...)
	default:
		r.drop(loc, t, ReasonTooMuch)
	}
	return out
}

// runtimeDir is the prefix of an interpreter: the directory above its
// bin, else its directory (never too much at once).
func (r *resolver) runtimeDir(rt string) []string {
	if rt == "" {
		return nil
	}
	dir := filepath.Dir(filepath.Clean(rt))
	if filepath.Base(dir) == "bin" {
		dir = filepath.Dir(dir)
	}
	if r.tooMuch(dir) {
		return r.opened(rt)
	}
	return r.opened(dir)
}

// interpreterOf is the interpreter a script's #! line names by its
// absolute path ("" for a program that is not a script, or that names it
// through env: the runtimes on PATH cover that).
func (r *resolver) interpreterOf(file string) string {
	if r.f.ReadHead == nil {
		return ""
	}
	head, err := r.f.ReadHead(file, 256)
	if err != nil || !bytes.HasPrefix(head, []byte("#!")) {
		return ""
	}
	line, _, _ := bytes.Cut(head[2:], []byte("\n"))
	fields := strings.Fields(string(line))
	if len(fields) == 0 || !filepath.IsAbs(fields[0]) || filepath.Base(fields[0]) == "env" {
		return ""
	}
	return fields[0]
}

// argPath is the absolute path an argument names, relative to where the
// server runs, not cleaned (a link before ".." must be followed first);
// ok is false for a flag or an empty argument.
func (r *resolver) argPath(a string) (string, bool) {
	if a == "" || strings.HasPrefix(a, "-") {
		return "", false
	}
	if !filepath.IsAbs(a) {
		if r.f.RunsIn == "" {
			return "", false
		}
		a = strings.TrimSuffix(r.f.RunsIn, string(filepath.Separator)) + string(filepath.Separator) + a
	}
	return a, true
}

// program is the file the sandbox runs and its arguments as the sandbox
// sees them: an argument with ".." in it that names an existing path is
// given as the path it reaches (the directories it passes through need
// not be in the sandbox, and a link before ".." is followed as the
// kernel would).
func (r *resolver) program() (string, []string) {
	f := r.f
	prog := f.Program.Path
	if f.Interpreter != "" {
		prog = f.Interpreter
	}
	args := make([]string, len(f.Program.Args))
	copy(args, f.Program.Args)
	for i, a := range args {
		if !hasDotDot(a) {
			continue
		}
		if loc, ok := r.argPath(a); ok {
			if t := r.real(loc); t != "" {
				args[i] = t
			}
		}
	}
	if prog != "" && f.Interpreter == "" {
		if t := r.real(prog); t != "" && t != filepath.Clean(prog) {
			r.p.Links = append(r.p.Links, Link{At: filepath.Clean(prog), To: t})
		}
	}
	return prog, args
}

// hasDotDot reports whether a path has a ".." element.
func hasDotDot(p string) bool {
	for _, e := range strings.Split(filepath.ToSlash(p), "/") {
		if e == ".." {
			return true
		}
	}
	return false
}

// packageRoot is the directory a file of a package lives in as a whole:
// its outermost node_modules (which holds the package's dependencies), a
// Python virtual environment (the directory with pyvenv.cfg), else the
// file's own directory.
func packageRoot(file string, exists func(string) bool) string {
	parts := strings.Split(filepath.Clean(file), string(filepath.Separator))
	for i, part := range parts[:len(parts)-1] {
		if part == "node_modules" {
			return string(filepath.Separator) + filepath.Join(parts[:i+1]...)
		}
	}
	dir := filepath.Dir(file)
	for d := dir; d != filepath.Dir(d); d = filepath.Dir(d) {
		if exists(filepath.Join(d, "pyvenv.cfg")) {
			return d
		}
	}
	return dir
}
