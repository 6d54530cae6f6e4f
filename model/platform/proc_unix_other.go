//go:build unix && !linux

package platform

import (
	"os/exec"
	"syscall"
)

// processTree is the group's hold on its processes: here the process
// group itself, which Signal addresses, so nothing is held. A descendant
// that leaves the group (setsid) is out of reach: macOS has neither a
// child subreaper nor a /proc whose environments a tag could be found in.
type processTree struct{}

func newProcessTree(*exec.Cmd) processTree { return processTree{} }

func (*processTree) started(int)                {}
func (*processTree) signal(int, syscall.Signal) {}
func (*processTree) release()                   {}
