package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/idefind"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/testdata/fakeeditor/editorlaunch"
	"github.com/mcpdeck/mcpdeck/testdata/faultlaunch"
	"github.com/mcpdeck/mcpdeck/testdata/winetest"
)

// editorBin is testdata/fakeeditor, built once per test binary.
var editorBin = faultlaunch.Binary{Package: editorlaunch.Package}

// lockedBuf is a log destination the test reads while the engine writes.
type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// ideRig is an engine whose editors' lock files live in claude/ide and
// whose project is proj.
type ideRig struct {
	e            *Engine
	claude, proj string
	log          *lockedBuf
	bin          string
}

func newIDERig(t *testing.T, watch bool) *ideRig {
	t.Helper()
	bin := needFaultServer(t) // skips under -short with the other integration tests
	_ = bin
	ebin, err := editorBin.Path()
	if err != nil {
		t.Fatal(err)
	}
	r := &ideRig{claude: t.TempDir(), log: &lockedBuf{}, bin: ebin}
	r.e = realEngine(t, map[string]any{}, map[string]string{idefind.ConfigDirVar: r.claude}, func(o *Options) {
		o.Watch = watch
		o.Logger = slog.New(slog.NewTextHandler(r.log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	r.proj = r.e.opts.Load.Cwd
	return r
}

// editor starts a fake editor with the project open.
func (r *ideRig) editor(t *testing.T, name string, args ...string) *editorlaunch.Editor {
	t.Helper()
	return editorlaunch.Start(t, r.bin, append([]string{"-dir", r.claude, "-workspace", r.proj, "-name", name}, args...)...)
}

// writeLock writes a lock file by hand, mode 0600.
func (r *ideRig) writeLock(t *testing.T, port int, doc map[string]any) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(r.claude, "ide"), 0o700); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(r.claude, "ide", strconv.Itoa(port)+".lock")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func gone(s Snapshot, name string) bool { _, ok := serverSnap(s, name); return !ok }

// awaitGone waits until the named server has no row.
func awaitGone(t *testing.T, e *Engine, name string) {
	t.Helper()
	deadline := time.After(awaitDeadline)
	for !gone(e.Snapshot(), name) {
		select {
		case <-e.Updates():
		case <-deadline:
			t.Fatalf("%s: still listed", name)
		}
	}
}

// TestIDEEndToEnd: an editor with the project open becomes the server
// "ide": no approval, "from NAME (pid N)", its tools callable, and its
// token nowhere in the snapshot, its JSON, its traffic or the log.
func TestIDEEndToEnd(t *testing.T) {
	r := newIDERig(t, false)
	if err := os.WriteFile(filepath.Join(r.proj, "a.go"), []byte("x\n// ERROR: boom\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ed := r.editor(t, "Fake Editor")
	if err := r.e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	s := await(t, r.e, "ide", "connected", inState(model.StateConnected))
	want := "from Fake Editor (pid " + strconv.Itoa(ed.PID) + ")"
	if s.Source != want || s.Editor == nil || s.Editor.Name != "Fake Editor" || s.Transport != model.TransportWSIDE ||
		s.Approval.Status != model.ApprovalNotNeeded || s.Scope != model.ScopeDynamic || len(s.Tools) != 5 {
		t.Fatalf("ide row: source %q editor %+v transport %s approval %v tools %d", s.Source, s.Editor, s.Transport, s.Approval, len(s.Tools))
	}
	res, err := r.e.CallTool(t.Context(), "ide", "getDiagnostics", nil, nil)
	if err != nil || len(res.Content) != 1 || !strings.Contains(res.Content[0].Text, "boom") {
		t.Fatalf("getDiagnostics: %+v, %v", res, err)
	}
	// The token echoed by the editor is masked in the recorded traffic.
	if _, err := r.e.CallTool(t.Context(), "ide", "executeCode", map[string]any{"code": `print("` + ed.Token + `")`}, nil); err != nil {
		t.Fatal(err)
	}
	s = await(t, r.e, "ide", "traffic", func(s ServerSnapshot) bool {
		return slices.ContainsFunc(s.Traffic, func(f Frame) bool { return f.Method == "tools/call" && f.Dir == FrameReceived })
	})
	all, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var frames strings.Builder
	for _, f := range s.Traffic {
		frames.WriteString(f.Body)
	}
	for where, text := range map[string]string{"json": string(all), "config": s.Config.Headers[model.TransportWSIDE.Info().TokenHeader], "traffic": frames.String(), "log": r.log.String()} {
		if strings.Contains(text, ed.Token) {
			t.Errorf("the token shows in the %s: %s", where, text)
		}
	}
}

// TestIDEWrongToken: a lock file whose token the editor refuses fails the
// row with the editor's refusal, not a sign-in, and the token stays out.
func TestIDEWrongToken(t *testing.T) {
	r := newIDERig(t, false)
	ed := editorlaunch.Start(t, r.bin, "-dir", t.TempDir(), "-workspace", r.proj) // its own lock file is elsewhere
	wrong := strings.Repeat("b", 32)
	r.writeLock(t, ed.Port, map[string]any{"pid": ed.PID, "workspaceFolders": []string{r.proj}, "ideName": "Liar", "transport": "ws", "authToken": wrong})
	if err := r.e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	s := await(t, r.e, "ide", "failed", inState(model.StateFailed))
	all, _ := json.Marshal(s)
	if !strings.Contains(s.Error, "refused the token") || strings.Contains(string(all), wrong) || strings.Contains(r.log.String(), wrong) {
		t.Fatalf("error %q; snapshot %s", s.Error, all)
	}
}

// TestIDEIgnoresHostileLockFiles: stale pids, symlinks, files others may
// write, oversized files, non-loopback hosts, malformed JSON and editors
// of other folders (/proj vs /projX) make no row; each ignored file is
// logged with why, sanitized. A hostile ideName is shown sanitized.
func TestIDEIgnoresHostileLockFiles(t *testing.T) {
	r := newIDERig(t, false)
	ed := r.editor(t, "Real")
	tok := strings.Repeat("c", 32)
	live := os.Getpid()
	base := func(extra map[string]any) map[string]any {
		doc := map[string]any{"pid": live, "workspaceFolders": []string{r.proj}, "ideName": "Evil", "transport": "ws", "authToken": tok}
		for k, v := range extra {
			doc[k] = v
		}
		return doc
	}
	dead := exec.Command(r.bin) // exits at once: -dir is missing
	_ = dead.Run()
	r.writeLock(t, 40001, base(map[string]any{"pid": dead.Process.Pid}))
	r.writeLock(t, 40002, base(map[string]any{"host": "203.0.113.7"}))
	r.writeLock(t, 40003, base(map[string]any{"workspaceFolders": []string{r.proj + "X", "relative/" + filepath.Base(r.proj)}}))
	r.writeLock(t, 40004, base(map[string]any{"pad": strings.Repeat("x", 70<<10)}))
	if err := os.WriteFile(filepath.Join(r.claude, "ide", "40007.lock"), []byte("{\"pid\": \x1b[31m"), 0o600); err != nil {
		t.Fatal(err)
	}
	whys := []string{
		"40002.lock reason=\"lock file names a host other than loopback", "40004.lock reason=\"lock file not trusted: it is larger than 64 KB",
		"40007.lock reason=\"lock file malformed", "40001.lock pid=" + strconv.Itoa(dead.Process.Pid),
	}
	if runtime.GOOS != "windows" { // there the profile directory's ACL decides who may write
		writable := r.writeLock(t, 40005, base(nil))
		if err := os.Chmod(writable, 0o666); err != nil {
			t.Fatal(err)
		}
		whys = append(whys, "40005.lock reason=\"lock file not trusted: others may write it")
	}
	if winetest.Detected() {
		t.Log("under Wine: " + winetest.NoSymlinks + ": no symlinked lock file is tried")
	} else {
		if err := os.Symlink(ed.LockPath, filepath.Join(r.claude, "ide", "40006.lock")); err != nil {
			t.Fatal(err)
		}
		whys = append(whys, "40006.lock reason=\"lock file not trusted: it is a symbolic link")
	}
	if os.Getuid() == 0 { // only root can give a file to someone else
		if err := os.Chown(r.writeLock(t, 40008, base(nil)), 65534, 65534); err != nil {
			t.Fatal(err)
		}
		whys = append(whys, "40008.lock reason=\"lock file not trusted: it is not owned by you")
	}
	// Not hostile, only odd: a name with escape sequences, shown clean
	// (the editor's own lock file, rewritten).
	r.writeLock(t, ed.Port, map[string]any{"pid": ed.PID, "workspaceFolders": []string{r.proj}, "ideName": "\x1b]0;owned\x07Ne\x1b[2Jo\nvim", "transport": "ws", "authToken": ed.Token})
	if err := r.e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	s := await(t, r.e, "ide", "connected", inState(model.StateConnected))
	if s.Editor.Name != "Neo vim" || strings.ContainsRune(s.Source, 0x1b) {
		t.Fatalf("editor %q, source %q", s.Editor.Name, s.Source)
	}
	if len(r.e.Snapshot().Servers) != 1 {
		t.Fatalf("rows: %+v", r.e.Snapshot().Servers)
	}
	logged := r.log.String()
	for _, why := range whys {
		if !strings.Contains(logged, why) {
			t.Errorf("log lacks %q:\n%s", why, logged)
		}
	}
	if strings.ContainsRune(logged, 0x1b) || strings.Contains(logged, tok) || strings.Contains(logged, ed.Token) {
		t.Errorf("log holds an escape or a token:\n%s", logged)
	}
}

// TestIDELive: with watching on, editors that open and close the project
// come and go as rows (ide, ide-2, each with its editor's name); a killed
// editor's stale lock file is noticed when its connection ends; an
// editor that restarts on a new port and token keeps its row, which
// reconnects.
func TestIDELive(t *testing.T) {
	r := newIDERig(t, true)
	if err := r.e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	if len(r.e.Snapshot().Servers) != 0 {
		t.Fatal("rows before any editor")
	}
	first := r.editor(t, "Alpha")
	await(t, r.e, "ide", "Alpha connected", func(s ServerSnapshot) bool {
		return s.State == model.StateConnected && s.Editor.Name == "Alpha"
	})
	second := r.editor(t, "Beta")
	await(t, r.e, "ide-2", "Beta connected", func(s ServerSnapshot) bool {
		return s.State == model.StateConnected && s.Editor.Name == "Beta"
	})

	// Alpha restarts: the same editor on the same folder, a new port and token.
	first.Stop()
	again := editorlaunch.Start(t, r.bin, "-dir", r.claude, "-workspace", r.proj, "-name", "Alpha")
	s := await(t, r.e, "ide", "Alpha again", func(s ServerSnapshot) bool {
		return s.State == model.StateConnected && strings.HasSuffix(s.Target, ":"+strconv.Itoa(again.Port))
	})
	if s.Editor.PID != again.PID {
		t.Fatalf("ide is pid %d, want %d", s.Editor.PID, again.PID)
	}
	if b, _ := serverSnap(r.e.Snapshot(), "ide-2"); b.Editor == nil || b.Editor.Name != "Beta" {
		t.Fatalf("ide-2 moved: %+v", b.Editor)
	}

	// Beta crashes and leaves its lock file behind.
	second.Kill()
	if _, err := os.Stat(second.LockPath); err != nil {
		t.Fatalf("a killed editor's lock file: %v", err)
	}
	awaitGone(t, r.e, "ide-2")

	// Alpha quits cleanly.
	again.Stop()
	awaitGone(t, r.e, "ide")
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	if _, err := r.e.CallTool(ctx, "ide", "getDiagnostics", nil, nil); err == nil {
		t.Fatal("a call to a closed editor's server succeeded")
	}
}

// TestIDEReconnectToADeadEditorDropsIt: an editor that died before mcpdeck
// ever reached it (its port closed, its lock file left behind) fails;
// once its process is gone, the person's reconnect finds the lock file
// stale and the row goes.
func TestIDEReconnectToADeadEditorDropsIt(t *testing.T) {
	r := newIDERig(t, true)
	ed := editorlaunch.Start(t, r.bin, "-dir", t.TempDir(), "-workspace", r.proj) // a live process to name
	r.writeLock(t, 1, map[string]any{"pid": ed.PID, "workspaceFolders": []string{r.proj}, "ideName": "Ghost", "transport": "ws", "authToken": strings.Repeat("d", 32)})
	if err := r.e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	await(t, r.e, "ide", "failed", inState(model.StateFailed))
	ed.Kill()
	if err := r.e.Reconnect(t.Context(), "ide"); err != nil {
		t.Fatal(err)
	}
	awaitGone(t, r.e, "ide")
}

// TestIDENotUnderManagedConfig: managed configuration runs its own
// servers only, so no editor's server is offered.
func TestIDENotUnderManagedConfig(t *testing.T) {
	r := newIDERig(t, false)
	managed := `{"mcpServers": {"corp": {"command": "` + filepath.ToSlash(needFaultServer(t)) + `"}}}`
	if err := os.WriteFile(filepath.Join(r.e.opts.Load.ManagedDir, "managed-mcp.json"), []byte(managed), 0o600); err != nil {
		t.Fatal(err)
	}
	r.editor(t, "Code")
	if err := r.e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	await(t, r.e, "corp", "connected", inState(model.StateConnected))
	if !gone(r.e.Snapshot(), "ide") {
		t.Fatal("an editor's server under managed configuration")
	}
}
