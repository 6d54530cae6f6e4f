//go:build !windows

package platform

// Shell is the program that runs a configured command line, and its
// arguments: /bin/sh -c LINE.
func Shell(line string) (program string, args []string) {
	return "/bin/sh", []string{"-c", line}
}
