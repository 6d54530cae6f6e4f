package transports

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
)

func TestStderrRingSignalsNewLinesCoalesced(t *testing.T) {
	r := newStderrRing("", "s", nil)
	select {
	case <-r.changed:
		t.Fatal("signal before any line")
	default:
	}
	r.consume(strings.NewReader("one\ntwo\nthree\n"))
	r.note("[stdout] noise")
	select {
	case <-r.changed:
	default:
		t.Fatal("no signal after new lines")
	}
	select {
	case <-r.changed:
		t.Fatal("a burst of lines gave more than one signal")
	default:
	}
	if got := r.tail(0); len(got) != 4 || got[3] != "[stdout] noise" {
		t.Fatalf("tail = %q", got)
	}
}

func TestConnStderrChanged(t *testing.T) {
	c := open(t, stdioCfg(), Options{})
	ch := c.StderrChanged()
	if ch == nil {
		t.Fatal("stdio connection offers no stderr signal")
	}
	mustCall(t, c, "stderr", map[string]any{"mb": 0})
	deadline := time.After(10 * time.Second)
	for {
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("no stderr signal; tail %q", c.StderrTail(3))
		}
		if tail := c.StderrTail(1); len(tail) == 1 && tail[0] == "stderr flood done" {
			break
		}
	}
	builtins := map[string]func() *server.MCPServer{"echo": echoServer}
	if sdk := open(t, model.ServerConfig{Type: model.TransportSDK, Name: "echo"}, Options{Builtins: builtins}); sdk.StderrChanged() != nil {
		t.Error("an sdk connection offers a stderr signal")
	}
}

// Names that clean to the same file name, or differ only in case (one file
// on macOS and Windows), get different log files, each inside logDir.
func TestLogPathKeepsCleanedNamesApart(t *testing.T) {
	dir := t.TempDir()
	names := []string{"a/b", "a_b", "a b", "a\\b", "A_B", "a_B", "é", "ü", "", ".", "..", "server"}
	seen := map[string]string{}
	for _, n := range names {
		p := LogPath(dir, n)
		if filepath.Dir(p) != dir || !strings.HasSuffix(p, ".log") {
			t.Errorf("LogPath(%q) = %q, want a .log file in %s", n, p, dir)
		}
		if p != LogPath(dir, n) {
			t.Errorf("LogPath(%q) is not stable", n)
		}
		key := strings.ToLower(filepath.Base(p))
		if other, dup := seen[key]; dup {
			t.Errorf("%q and %q share the log file %s", other, n, filepath.Base(p))
		}
		seen[key] = n
	}
}

// size returns lines and bytes held in memory.
func (r *stderrRing) size() (lines, bytes int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.lines), r.bytes
}
