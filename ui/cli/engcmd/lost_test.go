package engcmd

import (
	"bufio"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestEngLostMidCallSaysReconnecting: call, read and prompt on a server
// whose process exits during the request say that the connection was lost
// during the call, why, and the reconnect attempt; exit 1.
func TestEngLostMidCallSaysReconnecting(t *testing.T) {
	e := clitest.NewEnv(t)
	fault := clitest.BuildFaultServer(t, t.TempDir())
	cfg := clitest.EngServers(t, map[string]any{"crashy": map[string]any{"command": fault, "args": []string{"-crash-everywhere"}}})
	lost := ": the connection was lost during the call (the server process exited with code 3: crashing with code 3); reconnecting (attempt 1/5).\n"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"call", "crashy", "crash"}, "mcpdeck: calling crash on crashy" + lost},
		{[]string{"read", "crashy", "fault://crash"}, "mcpdeck: reading fault://crash on crashy" + lost},
		{[]string{"prompt", "crashy", "crash"}, "mcpdeck: getting prompt crash on crashy" + lost},
	} {
		r := e.Fails(1, append([]string{"--mcp-config", cfg}, tc.args...)...)
		if r.Stderr != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", strings.Join(tc.args, " "), r.Stderr, tc.want)
		}
	}
}

// TestEngLostMidCallOverHTTP kills a streamable HTTP server while `call`
// waits for an answer due on the call's own event stream (where mcp-go says
// only "unexpected nil response"): the CLI says the connection was lost
// during the call, why, and the reconnect attempt.
func TestEngLostMidCallOverHTTP(t *testing.T) {
	e := clitest.NewEnv(t)
	fault := clitest.BuildFaultServer(t, t.TempDir())
	srv := exec.Command(fault, "-http", "127.0.0.1:0")
	stderr, err := srv.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	lines := bufio.NewScanner(stderr)
	if !lines.Scan() {
		t.Fatal("the fault server said nothing")
	}
	url := strings.TrimPrefix(lines.Text(), "listening on ")
	cfg := clitest.EngServers(t, map[string]any{"web": map[string]any{"type": "http", "url": url}})
	cli := e.Command("--mcp-config", cfg, "--elicit", "accept-defaults", "call", "web", "stall")
	var out strings.Builder
	cli.Stderr = &out
	if err := cli.Start(); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() && lines.Text() != "stalling" { // the call waits for its answer
	}
	if err := srv.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	var exit *exec.ExitError
	if err := cli.Wait(); !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("want exit 1, got %v: %s", err, out.String())
	}
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	want := "mcpdeck: calling stall on web: the connection was lost during the call (connection refused at " + host +
		": is the server running?); reconnecting (attempt 1/5).\n"
	if out.String() != want {
		t.Errorf("\n got %q\nwant %q", out.String(), want)
	}
}
