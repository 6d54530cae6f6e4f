package launch

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/testdata/launchtest"
)

// world is a working tree holding its own bin/npx (which leaves a mark
// when it runs) and an absolute directory holding the real one.
type world struct {
	tree, bin, npx, marker string
}

func newWorld(t *testing.T) world {
	t.Helper()
	w := world{tree: t.TempDir(), bin: filepath.Join(t.TempDir(), "bin")}
	_, w.marker = launchtest.Marker(t, filepath.Join(w.tree, "bin", "npx"))
	w.npx = launchtest.Script(t, filepath.Join(w.bin, "npx"), "exit 0")
	return w
}

// recording is l with a hook that keeps the Path of every command about
// to start.
func recording(l Launcher) (Launcher, *[]string) {
	var started []string
	l.starting = func(c *exec.Cmd) { started = append(started, c.Path) }
	return l, &started
}

// TestTheProgramStartedIsTheProgramJudged: under an allow rule for npx, a
// server whose env.PATH puts a relative directory first starts the npx of
// the absolute directory, from exactly the path policy judged; with only
// the relative directory it is not found and nothing starts; the tree's
// npx never runs.
func TestTheProgramStartedIsTheProgramJudged(t *testing.T) {
	w := newWorld(t)
	t.Setenv("PATH", w.bin)
	pol := launchtest.Load(t, `{"allowedMcpServers": [{"serverCommand": ["npx", "*"]}]}`, nil).ManagedPolicy
	sep := string(os.PathListSeparator)
	l, started := recording(Launcher{Policy: pol, Server: "s"})

	spec := Spec{Command: "npx", Args: []string{"-y", "pkg"}, Env: map[string]string{"PATH": "bin" + sep + w.bin}, Dir: w.tree}
	prog, err := model.ResolveProgram(spec.Command, spec.Args, spec.Env, w.tree, os.LookupEnv)
	if err != nil || prog.Path != w.npx {
		t.Fatalf("resolved %q, %v; want %s", prog.Path, err, w.npx)
	}
	if d := pol.Judge("s", prog); !d.Allowed {
		t.Fatalf("judged %+v", d)
	}
	g, err := l.Start(spec, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	g.Release()
	if len(*started) != 1 || (*started)[0] != prog.Path {
		t.Fatalf("started %q, judged %s", *started, prog.Path)
	}

	spec.Env = map[string]string{"PATH": "bin"}
	if _, err := l.Start(spec, nil, nil, nil); !errors.Is(err, platform.ErrNotFound) {
		t.Fatalf("relative PATH only: %v", err)
	}
	spec.Command = "bin/npx" // a path is relative to the working directory: allowed only if it is the person's npx
	if _, err := l.Start(spec, nil, nil, nil); !errors.Is(err, ErrBlocked) || !strings.Contains(err.Error(), "allowedMcpServers: not listed") {
		t.Fatalf("the tree's npx by path: %v", err)
	}
	if len(*started) != 1 || launchtest.Ran(w.marker) {
		t.Fatalf("started %q; the tree's npx ran: %v", *started, launchtest.Ran(w.marker))
	}
}

// TestAProgramNotFoundNeverRuns: a deny on /usr/bin/* cannot be dodged by
// an env.PATH that finds nothing: the program is not found, and nothing
// (least of all mcpdeck's own /usr/bin/sh) starts.
func TestAProgramNotFoundNeverRuns(t *testing.T) {
	pol := launchtest.Load(t, `{"deniedMcpServers": [{"serverCommand": ["/usr/bin/*", "*"]}]}`, nil).ManagedPolicy
	l, started := recording(Launcher{Policy: pol, Server: "s"})
	_, err := l.Start(Spec{Command: "sh", Args: []string{"-c", "exit 0"}, Env: map[string]string{"PATH": "/nonexistent"}}, nil, nil, nil)
	if !errors.Is(err, platform.ErrNotFound) || err.Error() != `command "sh" not found on PATH` {
		t.Fatalf("err %v", err)
	}
	if len(*started) != 0 {
		t.Fatalf("started %q", *started)
	}
}

// TestDenyAllStopsEveryProgram: under deniedMcpServers [["*"]] no kind of
// program starts — a server's command, a shell command line, a program
// run for its output, the browser opener — and each error names the rule.
func TestDenyAllStopsEveryProgram(t *testing.T) {
	w := newWorld(t)
	t.Setenv("BROWSER", w.npx)
	pol := launchtest.Load(t, launchtest.DenyAll, nil).ManagedPolicy
	l, started := recording(Launcher{Policy: pol, Server: "s"})
	ctx := context.Background()
	lim := platform.Limits{Timeout: time.Minute, MaxOutput: 1024}
	touch := "touch " + textsafe.QuoteArg(w.marker)
	_, startErr := l.Start(Spec{Command: w.npx}, nil, nil, nil)
	_, runErr := l.Run(ctx, Spec{Command: w.npx}, nil, lim)
	_, shellErr := l.RunShell(ctx, touch, nil, "", nil, lim)
	browserErr := Own(pol).OpenBrowser(ctx, "https://as.example/authorize")
	for what, err := range map[string]error{"start": startErr, "run": runErr, "shell": shellErr, "browser": browserErr} {
		var be *BlockedError
		if !errors.As(err, &be) || !errors.Is(err, ErrBlocked) || !strings.Contains(err.Error(), launchtest.DenyAllRule) {
			t.Errorf("%s: %v", what, err)
		}
	}
	if want := "/bin/sh not run: managed policy forbids it (" + launchtest.DenyAllRule + ")"; shellErr == nil || shellErr.Error() != want {
		t.Errorf("shell: %v, want %q", shellErr, want)
	}
	if len(*started) != 0 || launchtest.Ran(w.marker) {
		t.Fatalf("started %q", *started)
	}
}

// TestShellCommandsAreJudgedAsTheShell: a command line is the shell with
// "-c" and the line as arguments, so rules on the shell decide.
func TestShellCommandsAreJudgedAsTheShell(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("/bin/sh")
	}
	ctx := context.Background()
	lim := platform.Limits{Timeout: time.Minute, MaxOutput: 1024}
	for _, tc := range []struct {
		policy string
		ok     bool
	}{
		{`{"deniedMcpServers": [{"serverCommand": ["sh", "*"]}]}`, false},
		{`{"allowedMcpServers": [{"serverCommand": ["/bin/sh", "-c", "printf *"]}]}`, true},
		{`{"allowedMcpServers": [{"serverCommand": ["/bin/sh", "-c", "echo *"]}]}`, false},
		{`{"allowedMcpServers": [{"serverName": "s"}]}`, true},
	} {
		l := For(launchtest.Server(t, tc.policy, "s", map[string]any{"type": "http", "url": "https://mcp.example.com/mcp"}))
		out, err := l.RunShell(ctx, "printf ok", nil, "", nil, lim)
		if ok := err == nil && string(out) == "ok"; ok != tc.ok {
			t.Errorf("%s: %q, %v", tc.policy, out, err)
		}
	}
}

// TestOpenBrowser: the opener is $BROWSER's program, given the URL as one
// argument, and only http(s) URLs are opened.
func TestOpenBrowser(t *testing.T) {
	w := newWorld(t)
	got := filepath.Join(t.TempDir(), "url")
	t.Setenv("BROWSER", launchtest.Script(t, filepath.Join(t.TempDir(), "browser"), `printf '%s' "$1" > `+textsafe.QuoteArg(got)))
	const u = "https://as.example/authorize?a=b&c=d"
	if err := (Launcher{}).OpenBrowser(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(got)
	if err != nil || string(b) != u {
		t.Fatalf("the browser got %q, %v", b, err)
	}
	for _, bad := range []string{"file:///etc/passwd", "javascript:alert(1)", "-x"} {
		if err := (Launcher{}).OpenBrowser(context.Background(), bad); !errors.Is(err, ErrNotWebURL) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	t.Setenv("BROWSER", w.tree+"/bin/false-opener")
	if err := (Launcher{}).OpenBrowser(context.Background(), u); !errors.Is(err, platform.ErrNotFound) {
		t.Errorf("missing opener: %v", err)
	}
}
