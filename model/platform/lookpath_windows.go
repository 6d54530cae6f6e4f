//go:build windows

package platform

import (
	"io/fs"
	"path/filepath"
)

// programCandidates are the files a name may stand for: on Windows the name
// as given when it has an extension, else the name with each program
// extension, in the order cmd.exe tries them.
func programCandidates(file string) []string {
	if filepath.Ext(file) != "" {
		return []string{file}
	}
	return []string{file + ".com", file + ".exe", file + ".bat", file + ".cmd"}
}

// isProgram reports whether a file can be run: any regular file (Windows
// decides by extension, which programCandidates chose).
func isProgram(st fs.FileInfo) bool { return st.Mode().IsRegular() }
