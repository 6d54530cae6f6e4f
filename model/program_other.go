//go:build !windows

package model

import "io/fs"

// programCandidates are the files a PATH entry may hold for a name: on
// Unix, the name itself.
func programCandidates(file string) []string { return []string{file} }

// isProgram reports whether a file can be run: a regular file with an
// execute bit.
func isProgram(st fs.FileInfo) bool { return st.Mode().IsRegular() && st.Mode()&0o111 != 0 }
