//go:build !windows

package platform

import "io/fs"

// programCandidates are the files a name may stand for: on Unix, the name
// itself.
func programCandidates(file string) []string { return []string{file} }

// isProgram reports whether a file can be run: a regular file with an
// execute bit.
func isProgram(st fs.FileInfo) bool { return st.Mode().IsRegular() && st.Mode()&0o111 != 0 }
