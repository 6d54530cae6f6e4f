package launch

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/sandbox"
	"github.com/mcpdeck/mcpdeck/testdata/boxtest"
	"github.com/mcpdeck/mcpdeck/testdata/launchtest"
)

// boxed is a boxserver started by the launcher, spoken to over its pipes.
type boxed struct {
	t     *testing.T
	g     *platform.Group
	in    *os.File
	out   *bufio.Reader
	outF  *os.File
	id    int
	ended bool
}

// startBox starts the boxserver at bin in project (its working
// directory) with box as its sandbox (nil: none), and initializes it.
func startBox(t *testing.T, bin, project string, box *model.Sandbox) *boxed {
	t.Helper()
	return startBoxEnv(t, bin, project, box, nil)
}

// startBoxEnv is startBox with the definition's env.
func startBoxEnv(t *testing.T, bin, project string, box *model.Sandbox, env map[string]string) *boxed {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	l := Launcher{Server: "box", Project: project}
	g, err := l.Start(Spec{Command: bin, Dir: project, Sandbox: box, Env: env}, inR, outW, nil)
	_ = inR.Close()
	_ = outW.Close()
	if err != nil {
		t.Fatal(err)
	}
	b := &boxed{t: t, g: g, in: inW, out: bufio.NewReader(outR), outF: outR}
	t.Cleanup(b.stop)
	b.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"}})
	fmt.Fprintln(b.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return b
}

// call sends one request and returns its result.
func (b *boxed) call(method string, params any) json.RawMessage {
	b.t.Helper()
	b.id++
	req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": b.id, "method": method, "params": params})
	if _, err := b.in.Write(append(req, '\n')); err != nil {
		b.t.Fatal(err)
	}
	line, err := b.out.ReadBytes('\n')
	if err != nil {
		b.t.Fatalf("%s: %v", method, err)
	}
	var resp struct {
		Result json.RawMessage
		Error  *struct{ Message string }
	}
	if err := json.Unmarshal(line, &resp); err != nil || resp.Error != nil {
		b.t.Fatalf("%s: %s (%v)", method, line, err)
	}
	return resp.Result
}

// tool calls a boxserver tool and returns its text.
func (b *boxed) tool(name string, args map[string]string) string {
	b.t.Helper()
	var r struct{ Content []struct{ Text string } }
	if err := json.Unmarshal(b.call("tools/call", map[string]any{"name": name, "arguments": args}), &r); err != nil || len(r.Content) == 0 {
		b.t.Fatalf("%s: %v", name, err)
	}
	return r.Content[0].Text
}

// stop closes stdin and waits for the group to end.
func (b *boxed) stop() {
	if b.ended {
		return
	}
	b.ended = true
	_ = b.in.Close()
	b.g.Signal(platform.Kill)
	_, _ = b.g.Wait()
	_ = b.outF.Close()
}

// boxWorld is a planted home, a project holding a file, and the
// boxserver built outside both.
type boxWorld struct{ home, key, project, bin string }

func newBoxWorld(t *testing.T) boxWorld {
	boxtest.RequireMechanism(t)
	w := boxWorld{bin: boxtest.BuildBoxServer(t, t.TempDir())}
	w.home, w.key = boxtest.PlantHome(t)
	w.project = filepath.Join(w.home, "proj")
	if err := os.MkdirAll(w.project, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.project, "README"), []byte("project file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.project, ".mcp.json"), []byte("{}"), 0o644); err != nil { // what makes it a project
		t.Fatal(err)
	}
	return w
}

// TestSandboxHidesKeys: a planted ~/.ssh/id_rsa is read by the server
// without a sandbox (the test can fail) and not with the default one,
// not even when the definition lists ~ or the key itself; the project
// stays readable, and a listed path that does not exist is skipped.
func TestSandboxHidesKeys(t *testing.T) {
	w := newBoxWorld(t)
	if got := startBox(t, w.bin, w.project, nil).tool("read", map[string]string{"path": w.key}); got != boxtest.Key {
		t.Fatalf("unsandboxed read of the key = %q: the test would prove nothing", got)
	}
	for _, box := range []*model.Sandbox{
		model.DefaultSandbox(),
		{Profile: model.SandboxProfileDefault, Read: []string{w.home, w.key, filepath.Join(w.home, "missing")}, Write: []string{"/no/such/dir"}},
	} {
		b := startBox(t, w.bin, w.project, box)
		if got := b.tool("read", map[string]string{"path": w.key}); !strings.HasPrefix(got, "error: ") {
			t.Errorf("sandbox %s: the key was read: %q", box.Summary(), got)
		}
		if got := b.tool("read", map[string]string{"path": filepath.Join(w.project, "README")}); got != "project file" {
			t.Errorf("sandbox %s: project file = %q", box.Summary(), got)
		}
		b.stop()
	}
}

// TestSandboxWrites: the private /tmp and the listed write paths take
// writes (seen on the host); the project, the home and everything else
// do not, though the process runs as root here (the mount namespace
// denies, not file modes); the private temporary directory is gone when
// the server stops.
func TestSandboxWrites(t *testing.T) {
	w := newBoxWorld(t)
	out := filepath.Join(t.TempDir(), "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	b := startBox(t, w.bin, w.project, &model.Sandbox{Profile: model.SandboxProfileDefault, Write: []string{out}})
	if got := b.tool("write", map[string]string{"path": filepath.Join(out, "ok"), "text": "hi"}); got != "wrote 2 bytes" {
		t.Errorf("write to a write path: %q", got)
	}
	if got, err := os.ReadFile(filepath.Join(out, "ok")); err != nil || string(got) != "hi" {
		t.Errorf("the host does not see the write: %q %v", got, err)
	}
	if got := b.tool("write", map[string]string{"path": "/tmp/scratch", "text": "x"}); got != "wrote 1 bytes" {
		t.Errorf("write to the private /tmp: %q", got)
	}
	for _, p := range []string{filepath.Join(w.project, "evil"), filepath.Join(w.home, "evil"), "/usr/evil", "/evil"} {
		if got := b.tool("write", map[string]string{"path": p, "text": "x"}); !strings.HasPrefix(got, "error: ") {
			t.Errorf("write to %s outside the write paths: %q", p, got)
		}
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s exists on the host", p)
			_ = os.Remove(p)
		}
	}
	tmps, _ := filepath.Glob(filepath.Join(os.TempDir(), "mcpdeck-sandbox-*"))
	b.stop()
	for _, d := range tmps {
		if _, err := os.Stat(d); err == nil && ownedByTest(d) {
			t.Errorf("private temporary directory %s outlived the server", d)
		}
	}
}

// ownedByTest reports whether d held this test's scratch file.
func ownedByTest(d string) bool { _, err := os.Stat(filepath.Join(d, "scratch")); return err == nil }

// TestSandboxChildIsSandboxed: a child the server spawns cannot read the
// key either (and can read the project), and the server sees itself in a
// namespace of its own (pid 2 or so, never its host pid).
func TestSandboxChildIsSandboxed(t *testing.T) {
	w := newBoxWorld(t)
	b := startBox(t, w.bin, w.project, model.DefaultSandbox())
	if got := b.tool("spawn_read", map[string]string{"path": w.key}); !strings.HasPrefix(got, "error: ") {
		t.Errorf("a child read the key: %q", got)
	}
	if got := b.tool("spawn_read", map[string]string{"path": filepath.Join(w.project, "README")}); got != "project file" {
		t.Errorf("a child read the project file as %q", got)
	}
	if got := b.tool("pid", nil); got == fmt.Sprint(b.g.Pid()) || len(got) > 2 {
		t.Errorf("the server sees pid %s: not in a pid namespace of its own", got)
	}
}

// TestSandboxNetwork: with network none the server cannot reach a
// loopback listener of the host; with all it can.
func TestSandboxNetwork(t *testing.T) {
	w := newBoxWorld(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()
	addr := ln.Addr().String()
	if got := startBox(t, w.bin, w.project, model.DefaultSandbox()).tool("dial", map[string]string{"addr": addr}); !strings.HasPrefix(got, "error: ") {
		t.Errorf("network none: dial %s = %q", addr, got)
	}
	all := &model.Sandbox{Profile: model.SandboxProfileDefault, Network: model.SandboxNetwork{All: true}}
	if got := startBox(t, w.bin, w.project, all).tool("dial", map[string]string{"addr": addr}); got != "connected" {
		t.Errorf("network all: dial %s = %q", addr, got)
	}
}

// TestSandboxUnavailableStartsNothing: where the mechanism is missing a
// sandboxed server does not start, and the error says what to install.
func TestSandboxUnavailableStartsNothing(t *testing.T) {
	_, err := sandbox.FindMechanism(func(string) bool { return false })
	var ue *sandbox.UnavailableError
	if !errors.As(err, &ue) || !errors.Is(err, sandbox.ErrUnavailable) || !strings.Contains(err.Error(), "install") {
		t.Fatalf("Find with nothing installed: %v", err)
	}
}

// TestPolicyRequiresASandbox: under sandboxedMcpServers a server's
// program without a sandbox does not start, and the error names the
// rule; with one it starts.
func TestPolicyRequiresASandbox(t *testing.T) {
	bin := boxtest.BuildBoxServer(t, t.TempDir())
	pol := launchtest.Load(t, `{"sandboxedMcpServers": [{"serverCommand": ["*"]}]}`, nil).ManagedPolicy
	l := Launcher{Policy: pol, Server: "box"}
	_, err := l.Start(Spec{Command: bin}, nil, nil, nil)
	var be *BlockedError
	if !errors.As(err, &be) || be.Rule != `sandboxedMcpServers: serverCommand ["*"] (the server has no sandbox)` {
		t.Fatalf("unsandboxed start: %v", err)
	}
	boxtest.RequireMechanism(t)
	g, err := l.Start(Spec{Command: bin, Sandbox: model.DefaultSandbox()}, nil, nil, nil)
	if err != nil {
		t.Fatalf("sandboxed start: %v", err)
	}
	_, _ = g.Wait() // stdin is the null device: the server ends at once
}
