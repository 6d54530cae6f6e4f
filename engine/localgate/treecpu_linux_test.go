//go:build linux

package localgate

import (
	"bufio"
	"os/exec"
	"strconv"
	"testing"
)

// TestTreeCPUCountsDescendants: the CPU a child of the process used counts
// (a shell whose child computes is busy), and a process that ended cannot
// be read.
func TestTreeCPUCountsDescendants(t *testing.T) {
	// The outer shell only waits; the inner one computes, says so, then
	// sleeps until killed.
	inner := `i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo done; exec sleep 60`
	cmd := exec.Command("sh", "-c", `sh -c '`+inner+`' & wait`)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	outer, ok := statCPU(strconv.Itoa(cmd.Process.Pid))
	if !ok {
		t.Fatal("the outer shell's stat cannot be read")
	}
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	used, ok := TreeCPU(cmd.Process.Pid)
	if !ok {
		t.Fatal("TreeCPU of a running shell: not ok")
	}
	if used <= outer {
		t.Fatalf("TreeCPU %v after the child computed, the outer shell alone %v: the child is not counted", used, outer)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if _, ok := TreeCPU(cmd.Process.Pid); ok {
		t.Fatal("TreeCPU of an ended process: ok")
	}
}
