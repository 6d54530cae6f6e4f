//go:build unix

package engcmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
)

// TestReadWatchPrintsEachChange: `read --watch` prints the resource, then
// again on every update the server announces (the fault server's ticker
// changes three times once subscribed), until Ctrl-C, which exits 130.
func TestReadWatchPrintsEachChange(t *testing.T) {
	e := clitest.NewEnv(t)
	fault := clitest.BuildFaultServer(t, t.TempDir())
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"f": map[string]any{"command": fault}}})
	cmd := e.Command("--mcp-config", string(cfg), "read", "f", "fault://ticker", "--watch")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if sc.Text() == "tick 3" {
			break
		}
	}
	_ = cmd.Process.Signal(syscall.SIGINT)
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != clierr.ExitInterrupted {
		t.Errorf("exit: %v, want %d\nstderr:\n%s", err, clierr.ExitInterrupted, stderr.String())
	}
	if len(lines) < 2 || lines[1] != "tick 0" || lines[len(lines)-1] != "tick 3" {
		t.Fatalf("printed %q, want the resource with tick 0 first and tick 3 last\nstderr:\n%s", lines, stderr.String())
	}
	if !strings.Contains(stderr.String(), "fault://ticker changed (update") {
		t.Errorf("stderr does not say when it changed:\n%s", stderr.String())
	}
}

// TestReadWatchJSONIsWhatTheServerSent: `read --watch --json` prints each
// read as one JSON line holding the result as the server sent it, as
// `read --json` does: MCP's contents, not mcpdeck's own record.
func TestReadWatchJSONIsWhatTheServerSent(t *testing.T) {
	e := clitest.NewEnv(t)
	fault := clitest.BuildFaultServer(t, t.TempDir())
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"f": map[string]any{"command": fault}}})
	cmd := e.Command("--mcp-config", string(cfg), "read", "f", "fault://ticker", "--watch", "--json")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var reads []map[string]any
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		var v map[string]any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		reads = append(reads, v)
		if len(reads) == 2 {
			break
		}
	}
	_ = cmd.Process.Signal(syscall.SIGINT)
	_ = cmd.Wait()
	if len(reads) != 2 {
		t.Fatalf("%d reads printed\nstderr:\n%s", len(reads), stderr.String())
	}
	for i, r := range reads {
		contents, _ := r["contents"].([]any)
		var first map[string]any
		if len(contents) > 0 {
			first, _ = contents[0].(map[string]any)
		}
		if len(r) != 1 || first["uri"] != "fault://ticker" || !strings.HasPrefix(fmt.Sprint(first["text"]), "tick ") {
			t.Errorf("read %d: %v, want {\"contents\":[{\"uri\":\"fault://ticker\",\"text\":\"tick N\",…}]}", i, r)
		}
	}
}
