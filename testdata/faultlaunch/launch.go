// Package faultlaunch builds and starts the fault server
// (testdata/faultserver) for the transports and engine tests, so both test
// the same way: one build per test binary, and network servers stopped and
// reaped when the test ends.
package faultlaunch

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Binary is a test program built on first use: the fault server, or
// the program Package names. The zero value is the fault server; a test
// package keeps one and calls Remove when its tests end.
type Binary struct {
	// Package is the import path of the program to build; "" for the
	// fault server.
	Package string
	once    sync.Once
	dir     string
	path    string
	err     error
}

// PrebuiltEnv names a directory holding these programs already built for
// the system the tests run on, named as Path would build them. The Windows
// test binaries run under Wine, where there is no Go toolchain to build
// them: testdata/wine/run.sh builds them first and sets it. Each test
// binary still runs its own copy, as it would its own build: tests find
// their processes by the program's path, and another package's tests
// run the same program at the same time.
const PrebuiltEnv = "MCPDECK_TEST_PROGRAMS"

// Path builds the program the first time and returns its executable.
func (b *Binary) Path() (string, error) {
	b.once.Do(func() {
		pkg := b.Package
		if pkg == "" {
			pkg = "github.com/mcpdeck/mcpdeck/testdata/faultserver"
		}
		name := path.Base(pkg)
		if runtime.GOOS == "windows" {
			name += ".exe" // CreateProcess adds .exe to a name without an extension
		}
		b.dir, b.err = os.MkdirTemp("", "mcpdeck-"+path.Base(pkg)+"-")
		if b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, name)
		if dir := os.Getenv(PrebuiltEnv); dir != "" {
			if err := copyFile(filepath.Join(dir, name), b.path); err != nil {
				b.err = fmt.Errorf("%s is set, but its %s cannot be copied: %w", PrebuiltEnv, name, err)
			}
			return
		}
		cmd := exec.Command("go", "build", "-o", b.path, pkg)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("building %s: %w\n%s", path.Base(pkg), err, out)
		}
	})
	return b.path, b.err
}

// copyFile copies the program src to dst, executable.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Remove deletes the built executable, if any.
func (b *Binary) Remove() {
	if b.dir != "" {
		_ = os.RemoveAll(b.dir)
	}
}

// Start runs the fault server bin in a network mode ("-http", "-sse",
// "-ws") on a free loopback port with the extra args, and returns the URL
// it announced and its process. The process is killed and reaped when the
// test ends; its stderr is drained until then.
func Start(t testing.TB, bin, mode string, args ...string) (url string, cmd *exec.Cmd) {
	t.Helper()
	return StartAt(t, bin, mode, "127.0.0.1:0", args...)
}

// StartAt is Start on the address addr: a server started again where a
// killed one listened.
func StartAt(t testing.TB, bin, mode, addr string, args ...string) (url string, cmd *exec.Cmd) {
	t.Helper()
	cmd = exec.Command(bin, append([]string{mode, addr}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	br := bufio.NewReader(stderr)
	line, readErr := br.ReadString('\n')
	go func() { // keep draining, then reap
		_, _ = br.WriteTo(discard{})
		_ = cmd.Wait()
		close(done)
	}()
	if readErr != nil {
		t.Fatalf("faultserver did not announce its address: %v", readErr)
	}
	u, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if !ok {
		t.Fatalf("faultserver said %q, want its address", line)
	}
	return u, cmd
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
