package mcpcmd

import (
	"bytes"
	"errors"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/testdata/fakeregistry"
)

// exchange is one turn of a conversation at a terminal: once the terminal
// has shown wait, type answer — for a hidden answer, only once the
// program has turned the terminal's echo off.
type exchange struct {
	wait, answer string
	hidden       bool
}

// waitEchoOff spins until the terminal no longer echoes what is typed: a
// password prompt is printed just before echo goes off. Nothing here can
// block on the program, so it polls, yielding, for at most 10 s.
func waitEchoOff(t *testing.T, ctl *os.File) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); runtime.Gosched() {
		tio, err := unix.IoctlGetTermios(int(ctl.Fd()), unix.TCGETS)
		if err != nil {
			t.Fatal(err)
		}
		if tio.Lflag&unix.ECHO == 0 {
			return
		}
	}
	t.Fatal("the terminal still echoes: the secret would be shown")
}

// converse runs mcpdeck with a terminal as its standard input and output
// (and no keychain: no session bus), plays the exchanges in order, and
// returns everything the terminal showed and the exit code.
func converse(e *clitest.Env, t *testing.T, env []string, turns []exchange, args ...string) (string, int) {
	t.Helper()
	ctl, tty := clitest.OpenPTY(t)
	defer ctl.Close()
	cmd := exec.Command(clitest.Binary, args...)
	cmd.Dir = e.Proj
	cmd.Env = append([]string{
		"HOME=" + e.Home, "XDG_CONFIG_HOME=" + e.Config, "MCPDECK_MANAGED_DIR=" + e.Managed,
		"XDG_CACHE_HOME=" + filepath.Join(e.Home, ".cache"), "PATH=" + os.Getenv("PATH"),
		"DBUS_SESSION_BUS_ADDRESS=disabled:",
	}, env...)
	var stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = tty.Close()
	var shown bytes.Buffer
	buf := make([]byte, 4096)
	from := 0 // where the next wait is looked for
	for {
		n, err := ctl.Read(buf)
		shown.Write(buf[:n])
		if len(turns) > 0 {
			if i := strings.Index(shown.String()[from:], turns[0].wait); i >= 0 {
				from += i + len(turns[0].wait)
				if turns[0].hidden {
					waitEchoOff(t, ctl)
				}
				if _, err := ctl.Write([]byte(turns[0].answer)); err != nil {
					t.Fatal(err)
				}
				turns = turns[1:]
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, syscall.EIO) {
				t.Fatal(err)
			}
			break
		}
	}
	code := 0
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatal(err)
		}
		code = ee.ExitCode()
	}
	if len(turns) > 0 {
		t.Fatalf("the terminal never showed %q:\n%s\n%s", turns[0].wait, shown.String(), stderr.String())
	}
	return shown.String() + stderr.String(), code
}

// TestRegistryAddAtATerminal: at a terminal the fields not given are asked
// for (the secret typed without echo, a default offered), the definition
// and its file are shown, and nothing is written until the person says
// yes. ACCESSIBLE makes huh ask line by line, which a test can answer.
func TestRegistryAddAtATerminal(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(fakeregistry.Handler())
	t.Cleanup(srv.Close)
	e := clitest.NewEnv(t)
	env := []string{"MCPDECK_REGISTRY_URL=" + srv.URL, "ACCESSIBLE=1"}
	secret := "typed-weather-key-0123456789"
	ask := []exchange{
		{wait: "env WEATHER_API_KEY ", answer: secret + "\n", hidden: true},
		{wait: "\nenv UNITS ", answer: "imperial\n"},
	}

	shown, code := converse(e, t, env, append(ask, exchange{wait: "Add it? [y/N] ", answer: "n\n"}), "mcp", "add", "-s", "user", "--registry", "io.github.example/weather")
	if code != 0 || !strings.Contains(shown, "Nothing was added.") {
		t.Fatalf("answering no: exit %d\n%s", code, shown)
	}
	if _, err := os.Stat(e.ScopeFile("user")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("answering no wrote the settings: %v", err)
	}

	shown, code = converse(e, t, env, append(ask, exchange{wait: "Add it? [y/N] ", answer: "y\n"}), "mcp", "add", "-s", "user", "--registry", "io.github.example/weather")
	for _, want := range []string{
		"io.github.example/weather asks for env WEATHER_API_KEY, env UNITS",
		"Command  uvx mcp-weather==1.2.0", "Env      UNITS=imperial", "Env      WEATHER_API_KEY=${secret:WEATHER_API_KEY}",
		"Sandbox  default profile · network pypi.org, files.pythonhosted.org",
		"in the user scope (" + e.ScopeFile("user") + ")", "Added stdio server weather",
		"Stored WEATHER_API_KEY in mcpdeck's secret store, for weather in the user scope only.",
	} {
		if !strings.Contains(shown, want) {
			t.Errorf("the terminal lacks %q:\n%s", want, shown)
		}
	}
	if code != 0 || strings.Contains(shown, secret) {
		t.Fatalf("exit %d; the secret must not be echoed:\n%s", code, shown)
	}
	if got := e.ReadFile(e.ScopeFile("user")); strings.Contains(got, secret) || !strings.Contains(got, `"UNITS": "imperial"`) {
		t.Errorf("settings:\n%s", got)
	}
	if got := e.ReadFile(filepath.Join(e.Config, "mcpdeck", "credentials.json")); !strings.Contains(got, `"secret:user::weather:WEATHER_API_KEY": "`+secret+`"`) {
		t.Errorf("credentials:\n%s", got)
	}
}
