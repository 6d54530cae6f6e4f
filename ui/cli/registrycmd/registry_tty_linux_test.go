package registrycmd

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/testdata/fakeregistry"
)

// TestRegistrySearchShowsTheWaitOnATerminal: while the registry has not
// answered, a terminal's stderr shows a line saying what mcpdeck waits for,
// where, and for how long; it is erased before the results. The registry
// answers only once the test has seen the line.
func TestRegistrySearchShowsTheWaitOnATerminal(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	answer := func() { once.Do(func() { close(release) }) }
	reg := fakeregistry.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
		reg.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(answer) // before the server closes: it waits for its handlers
	e := clitest.NewEnv(t)

	master, slave := clitest.OpenPTY(t)
	cmd := exec.Command(clitest.Binary, "registry", "search", "file")
	cmd.Dir = e.Proj
	cmd.Env = []string{
		"HOME=" + e.Home, "XDG_CONFIG_HOME=" + e.Config, "MCPDECK_MANAGED_DIR=" + e.Managed,
		"XDG_CACHE_HOME=" + filepath.Join(e.Home, ".cache"), "PATH=" + os.Getenv("PATH"), "TERM=xterm",
		"MCPDECK_REGISTRY_URL=" + srv.URL,
	}
	var out bytes.Buffer // read once the command ended
	cmd.Stdout, cmd.Stderr = &out, slave
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = slave.Close()
	want := "searching the MCP Registry at " + srv.URL + "… · 0s"
	var screen strings.Builder
	buf := make([]byte, 4096)
	for !strings.Contains(screen.String(), want) {
		n, err := master.Read(buf)
		if err != nil {
			t.Fatalf("no %q before the terminal closed: %v\n%q", want, err, screen.String())
		}
		screen.Write(buf[:n])
	}
	answer()
	for {
		n, err := master.Read(buf)
		screen.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("registry search: %v\n%q", err, screen.String())
	}
	if !strings.Contains(out.String(), "io.github.modelcontextprotocol/server-filesystem") {
		t.Errorf("results:\n%s", out.String())
	}
	if !strings.HasSuffix(screen.String(), "\r\x1b[2K") {
		t.Errorf("the line was not erased: %q", screen.String())
	}
}
