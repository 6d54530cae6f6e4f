//go:build windows

package platform

import (
	"os"
	"path/filepath"
)

// Shell is the program that runs a configured command line, and its
// arguments: %ComSpec% /C LINE, or cmd.exe found in PATH when ComSpec is
// not an absolute path.
func Shell(line string) (program string, args []string) {
	program = os.Getenv("ComSpec")
	if !filepath.IsAbs(program) {
		program = "cmd.exe"
	}
	return program, []string{"/C", line}
}
