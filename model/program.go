package model

import (
	"path/filepath"

	"github.com/mcpdeck/mcpdeck/model/platform"
)

// Program is a program mcpdeck is about to start, as the one resolver
// (platform.LookPath) found it: managed policy judges it, and the launcher
// starts Path and nothing else. Only ResolveProgram makes one.
type Program struct {
	Command string   // as configured: "npx", "./bin/x", "/bin/sh"
	Args    []string // its arguments
	Path    string   // the absolute file that runs
	Real    string   // Path with symbolic links resolved ("" when that fails)
	// mcpdeckPATH is mcpdeck's own PATH, where a bare name in a policy
	// rule is looked up; fromEnvPATH is set when the program was found in
	// a PATH the definition set (env.PATH) rather than in that one.
	mcpdeckPATH string
	fromEnvPATH bool
}

// FindOnMcpdeckPATH is where mcpdeck's own PATH (not one the definition
// set) finds a bare name, or "": a bare name in a policy rule means that
// file.
func (p Program) FindOnMcpdeckPATH(name string) string {
	path, err := platform.LookPath(name, "", p.mcpdeckPATH)
	if err != nil {
		return ""
	}
	return path
}

// FromEnvPATH reports whether the program was found in a PATH its
// definition set (env.PATH) rather than in mcpdeck's own.
func (p Program) FromEnvPATH() bool { return p.fromEnvPATH }

// ResolveProgram finds the program command runs, exactly as the launcher
// will execute it: a bare name in env's PATH when env sets one, otherwise
// in mcpdeck's own PATH (read through lookupEnv); relative PATH entries are
// ignored; a command with a path separator is relative to dir, the
// absolute directory the program starts in. A program that cannot be
// found fails with platform.ErrNotFound (the Program still says what was
// asked for).
func ResolveProgram(command string, args []string, env map[string]string, dir string, lookupEnv func(string) (string, bool)) (Program, error) {
	person, _ := lookupEnv("PATH")
	p := Program{Command: command, Args: args, mcpdeckPATH: person}
	list, own := env["PATH"]
	if !own {
		list = person
	}
	path, err := platform.LookPath(command, dir, list)
	if err != nil {
		return p, err
	}
	p.Path, p.fromEnvPATH = path, own
	if real, err := filepath.EvalSymlinks(path); err == nil {
		p.Real = real
	}
	return p, nil
}
