package transports

import (
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
)

func TestStderrRingSignalsNewLinesCoalesced(t *testing.T) {
	r := newStderrRing("", "s")
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
