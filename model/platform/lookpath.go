package platform

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotFound is a program that cannot be found where it would be executed
// from. Nothing is started for it, and managed policy never allows it.
var ErrNotFound = errors.New("program not found")

// NotFoundError says which command LookPath could not find, and where it
// looked. It is ErrNotFound.
type NotFoundError struct {
	Command string
	Where   string // " on PATH", ": /abs/x is not a program file"…
}

func (e *NotFoundError) Error() string {
	if strings.TrimSpace(e.Command) == "" {
		return "no command to run"
	}
	return fmt.Sprintf("command %q not found%s", e.Command, e.Where)
}

// Is makes errors.Is(err, ErrNotFound) true.
func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

// LookPath finds the program command names, exactly as it will be
// executed. It is the one resolver: policy judges what it returns and the
// launcher starts that same file.
//
//   - A command holding a path separator ("./bin/x", "/usr/bin/x", and on
//     Windows "dir\x") names a file; a relative one is relative to dir, the
//     absolute directory the program starts in.
//   - A bare name is looked up in pathList's directories in order. Relative
//     and empty entries ("", ".", "node_modules/.bin") are ignored, always:
//     a working tree cannot put itself into the search.
//
// The result is an absolute, cleaned path to a program file (on Unix a
// regular file with an execute bit). Anything else fails with ErrNotFound.
func LookPath(command, dir, pathList string) (string, error) {
	if strings.TrimSpace(command) == "" {
		return "", &NotFoundError{Command: command}
	}
	if IsPath(command) {
		file := command
		if !filepath.IsAbs(file) {
			if !filepath.IsAbs(dir) {
				return "", &NotFoundError{Command: command, Where: fmt.Sprintf(": it is relative and the working directory %q is not absolute", dir)}
			}
			file = filepath.Join(dir, file)
		}
		for _, cand := range programCandidates(filepath.Clean(file)) {
			if isProgramFile(cand) {
				return cand, nil
			}
		}
		return "", &NotFoundError{Command: command, Where: ": " + filepath.Clean(file) + " is not a program file"}
	}
	where := " on PATH"
	for _, d := range filepath.SplitList(pathList) {
		if d == "" || !filepath.IsAbs(d) {
			where = " on PATH (its relative entries are ignored)"
			continue
		}
		for _, cand := range programCandidates(filepath.Join(d, command)) {
			if isProgramFile(cand) {
				return cand, nil
			}
		}
	}
	return "", &NotFoundError{Command: command, Where: where}
}

// IsPath reports whether a command names a file rather than a program to
// look up in PATH ("./x", "/usr/bin/x", and on Windows "dir\x").
func IsPath(command string) bool {
	return strings.ContainsRune(command, '/') || strings.ContainsRune(command, os.PathSeparator)
}

// isProgramFile reports whether file exists and can be run.
func isProgramFile(file string) bool {
	st, err := os.Stat(file)
	return err == nil && isProgram(st)
}
