package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/transports"
)

// TestTrafficRingBounds: the ring keeps the last 500 frames, and fewer
// when their bodies would pass 4 MB, the oldest going first; the count of
// frames let go grows with them.
func TestTrafficRingBounds(t *testing.T) {
	var r trafficRing
	for i := range 600 {
		r.add(Frame{Method: fmt.Sprint("m", i), Body: "{}"})
	}
	if len(r.frames) != maxTrafficFrames || r.frames[0].Method != "m100" || r.dropped != 100 || r.bytes != 2*maxTrafficFrames {
		t.Fatalf("%d frames, first %s, %d dropped, %d bytes", len(r.frames), r.frames[0].Method, r.dropped, r.bytes)
	}
	body := strings.Repeat("x", transports.MaxFrameBody)
	for i := range 100 {
		r.add(Frame{Method: fmt.Sprint("big", i), Body: body})
	}
	if r.bytes > maxTrafficBytes || len(r.frames) != maxTrafficBytes/transports.MaxFrameBody || r.frames[len(r.frames)-1].Method != "big99" {
		t.Fatalf("%d frames holding %d bytes, last %s", len(r.frames), r.bytes, r.frames[len(r.frames)-1].Method)
	}
	huge := Frame{Method: "huge", Body: strings.Repeat("y", maxTrafficBytes+1)}
	r.add(huge)
	if len(r.frames) != 1 || r.frames[0].Method != "huge" {
		t.Fatalf("a frame over the budget on its own is not kept alone: %d frames", len(r.frames))
	}
}

// TestTrafficKeptAcrossReconnects: a real server's frames reach the
// snapshot and Options.OnFrame, both sessions' handshakes stay in the ring
// after a reconnect, and the server's secret, echoed back in a result, is
// masked in every body.
func TestTrafficKeptAcrossReconnects(t *testing.T) {
	bin := needFaultServer(t)
	const secret = "sk-engine-5d1e0b7c"
	var mu sync.Mutex
	var seen []Frame
	e := realEngine(t, map[string]any{"s": map[string]any{"command": bin, "env": map[string]string{"API_KEY": secret}}}, nil,
		func(o *Options) {
			o.OnFrame = func(server string, f Frame) {
				mu.Lock()
				defer mu.Unlock()
				if server == "s" {
					seen = append(seen, f)
				}
			}
		})
	if err := e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "s", "connected", inState(model.StateConnected))
	if _, err := e.CallTool(t.Context(), "s", "env", map[string]any{"name": "API_KEY"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.Reconnect(t.Context(), "s"); err != nil {
		t.Fatal(err)
	}
	await(t, e, "s", "connected again", func(s ServerSnapshot) bool {
		return s.State == model.StateConnected && countFrames(s.Traffic, transports.Sent, "initialize") == 2
	})
	if _, err := e.CallTool(t.Context(), "s", "echo", map[string]any{"text": "after"}, nil); err != nil {
		t.Fatal(err)
	}
	s := await(t, e, "s", "the second call's response", func(s ServerSnapshot) bool {
		return countFrames(s.Traffic, transports.Received, "tools/call") == 2
	})
	now, _ := e.Traffic("s")
	if len(now) < len(s.Traffic) || countFrames(now, transports.Received, "tools/call") != 2 {
		t.Errorf("Traffic holds %d frames, the snapshot %d", len(now), len(s.Traffic))
	}
	for _, f := range s.Traffic {
		if strings.Contains(f.Body, secret) {
			t.Errorf("a frame shows the secret: %s", f.Body)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) < len(s.Traffic) || !slices.ContainsFunc(seen, func(f Frame) bool { return f.Method == "tools/call" && f.Masked > 0 }) {
		t.Errorf("OnFrame saw %d frames (snapshot %d), none a masked tools/call", len(seen), len(s.Traffic))
	}
}

func countFrames(fs []Frame, dir transports.Direction, method string) int {
	n := 0
	for _, f := range fs {
		if f.Dir == dir && f.Method == method {
			n++
		}
	}
	return n
}

// BenchmarkTrafficRingFull measures what a full ring costs: 500 frames of
// 64 KB bodies, held to the 4 MB budget (reported as MB/ring), and the
// time to record one frame into it.
func BenchmarkTrafficRingFull(b *testing.B) {
	body := strings.Repeat("x", transports.MaxFrameBody)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var r trafficRing
	for i := range maxTrafficFrames {
		r.add(Frame{At: time.Now(), Method: "tools/call", ID: fmt.Sprint(i), Body: strings.Clone(body[:len(body)-i%7])})
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	held, kept := float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), len(r.frames)
	b.ResetTimer()
	for i := range b.N {
		r.add(Frame{Method: "tools/call", Body: strings.Clone(body[:len(body)-i%7])})
	}
	b.ReportMetric(held, "MB/ring")
	b.ReportMetric(float64(kept), "frames")
}

// TestTrafficMasksStoreSecrets: a value a user definition takes from
// mcpdeck's secret store is masked in every recorded frame even where
// nothing else would take it for a secret (a positional argument), when
// the server echoes it back.
func TestTrafficMasksStoreSecrets(t *testing.T) {
	bin := needFaultServer(t)
	const secret = "store-positional-3e9a71c5"
	e := realEngine(t, map[string]any{}, nil, func(o *Options) {
		o.Load.LookupSecret = func(ref config.SecretRef) (string, error) {
			if ref.Server == "s" && ref.Name == "TOKEN" {
				return secret, nil
			}
			return "", config.ErrSecretNotFound
		}
		user, err := config.ScopePath(o.Load, model.ScopeUser)
		if err != nil {
			t.Fatal(err)
		}
		def, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"s": map[string]any{"command": bin, "args": []string{"${secret:TOKEN}"}}}})
		if err := os.MkdirAll(filepath.Dir(user), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(user, def, 0o600); err != nil {
			t.Fatal(err)
		}
	})
	if err := e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "s", "connected", inState(model.StateConnected))
	if _, err := e.CallTool(t.Context(), "s", "echo", map[string]any{"text": "key " + secret}, nil); err != nil {
		t.Fatal(err)
	}
	await(t, e, "s", "the call's response", func(s ServerSnapshot) bool {
		return countFrames(s.Traffic, transports.Received, "tools/call") == 1
	})
	frames, _ := e.Traffic("s")
	for _, f := range frames {
		if strings.Contains(f.Body, secret) {
			t.Errorf("a frame shows the stored secret: %s", f.Body)
		}
	}
}
