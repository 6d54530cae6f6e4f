package engine

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestServerThatDiesOnTheProbeConnects: a stdio server that exits with
// code 4 on server/discover, as some older servers do on a method they do
// not know, ends connected at its first start, with no failure, attempt or
// exit in its state or history; its version is remembered, and the next
// start sends no probe.
func TestServerThatDiesOnTheProbeConnects(t *testing.T) {
	bin := needFaultServer(t)
	cache := filepath.Join(t.TempDir(), "cache")
	servers := map[string]any{"old": map[string]any{"command": bin, "args": []string{"-die-on-unknown-method"}}}
	connect := func() (ServerSnapshot, int) {
		var mu sync.Mutex
		probes := 0
		e := realEngine(t, servers, nil, func(o *Options) {
			o.CacheDir = cache
			o.OnFrame = func(_ string, f Frame) {
				if f.Dir == FrameSent && f.Kind == FrameRequest && f.Method == string(mcp.MethodServerDiscover) {
					mu.Lock()
					probes++
					mu.Unlock()
				}
			}
		})
		if err := e.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		s := await(t, e, "old", "connected or failed", func(s ServerSnapshot) bool {
			return s.State == model.StateConnected || s.State == model.StateFailed
		})
		_ = e.Close()
		mu.Lock()
		defer mu.Unlock()
		return s, probes
	}
	s, probes := connect()
	if s.State != model.StateConnected || s.Error != "" || s.ExitCode != nil || s.Attempt != 0 {
		t.Fatalf("first start: state %s, error %q, exit %v, attempt %d", s.State, s.Error, s.ExitCode, s.Attempt)
	}
	for _, tr := range s.History {
		if tr.To != model.StateConnected || tr.Cause.Kind != "" {
			t.Fatalf("first start: history %+v", s.History)
		}
	}
	if s.ProtocolVersion != mcp.ProtocolVersion20251125 || probes != 1 {
		t.Fatalf("first start: protocol %q after %d probes", s.ProtocolVersion, probes)
	}

	s, probes = connect()
	if s.State != model.StateConnected || s.ProtocolVersion != mcp.ProtocolVersion20251125 {
		t.Fatalf("second start: state %s, error %q, protocol %q", s.State, s.Error, s.ProtocolVersion)
	}
	if probes != 0 {
		t.Fatalf("second start sent %d probes; the remembered version should skip it", probes)
	}
}
