package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
)

// trafficFixture is a session's worth of frames: the handshake, a tool
// call and its answer, a notification, an error answer and a cut result.
func trafficFixture() []engine.Frame {
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	big := `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"` + strings.Repeat("z", 300)
	return []engine.Frame{
		{
			At: at(0), Dir: engine.FrameSent, Kind: engine.FrameRequest, Method: "initialize", ID: "1", Size: 154,
			Body: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`,
		},
		{
			At: at(3), Dir: engine.FrameReceived, Kind: engine.FrameResponse, Method: "initialize", ID: "1", Size: 281, Duration: 3 * time.Millisecond,
			Body: `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}`,
		},
		{
			At: at(10), Dir: engine.FrameSent, Kind: engine.FrameRequest, Method: "tools/call", ID: "3", Size: 101,
			Body: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add_note","arguments":{"title":"milk"}}}`,
		},
		{
			At: at(15), Dir: engine.FrameReceived, Kind: engine.FrameNotification, Method: "notifications/progress", Size: 90,
			Body: `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`,
		},
		{
			At: at(22), Dir: engine.FrameReceived, Kind: engine.FrameResponse, Method: "tools/call", ID: "3", Size: 94, Duration: 12 * time.Millisecond, Masked: 1,
			Body: `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"saved, key ****"}]}}`,
		},
		{
			At: at(30), Dir: engine.FrameReceived, Kind: engine.FrameError, Method: "prompts/get", ID: "4", Size: 80, Duration: 2 * time.Second,
			Body: `{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"no such prompt"}}`,
		},
		{
			At: at(40), Dir: engine.FrameReceived, Kind: engine.FrameResponse, Method: "resources/read", ID: "5", Size: 3 << 20, Duration: 40 * time.Millisecond, Cut: true,
			Body: big,
		},
	}
}

// TestTrafficTab: the Traffic tab (9) lists a server's frames one a line
// (time, → or ←, method, id, kind, duration, size), follows new frames
// until the cursor moves up, filters by method with /, and enter shows a
// frame's body pretty-printed with what was masked or cut.
func TestTrafficTab(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Servers[5].Traffic = trafficFixture()
		s.Servers[5].TrafficDropped = 12
		f := newFakeEngine(s)
		h := newHarness(t, f, 100, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("enter", "9")
		h.wantView("[Traffic]", "7 frames (12 older let go) · enter shows one · / filters by method",
			"13:00:00.010 → tools/call", "#3", "13:00:00.022 ← tools/call", "12 ms",
			"notifications/progress", "notification", "✗ error", "2.0 s", "3.0 MiB cut",
			"› 13:00:00.040 ← resources/read") // the cursor follows the newest frame
		golden(t, "detail_traffic", h.view())

		s.Servers[5].Traffic = append(trafficFixture(), engine.Frame{At: t0.Add(time.Second), Dir: engine.FrameSent, Kind: engine.FrameNotification, Method: "notifications/cancelled", Size: 60, Body: "{}"})
		f.publish(s)
		h.settle()
		h.wantView("› 13:00:01.000 → notifications/cancelled")
		h.keys("k", "k", "k")
		h.wantView("› 13:00:00.022 ← tools/call")
		s.Servers[5].Traffic = append(s.Servers[5].Traffic, engine.Frame{At: t0.Add(2 * time.Second), Dir: engine.FrameSent, Kind: engine.FrameRequest, Method: "ping", ID: "9", Size: 40, Body: "{}"})
		f.publish(s)
		h.settle()
		h.wantView("› 13:00:00.022 ← tools/call", "→ ping") // moved up: no longer following

		h.keys("enter")
		h.wantView("← tools/call #3 12 ms 94 B", "received response", "(1 secret value(s) shown as ****)", `"text": "saved, key ****"`)
		golden(t, "traffic_frame", h.view())
		h.keys("esc", "G", "k", "k", "enter")
		h.wantView("(the first 368 B of 3.0 MiB: longer bodies are cut)", `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":`+"\n"+`"zzz`) // a line too long breaks after a separator
		h.keys("esc")

		h.keys("/")
		h.wantView("filter by method")
		h.keys("t", "o", "o", "l", "s", "enter")
		v := h.view()
		if strings.Contains(v, "initialize") || strings.Contains(v, "resources/read") || strings.Count(v, "tools/call") != 2 {
			t.Fatalf("the filter by method kept other frames:\n%s", v)
		}
		h.keys("esc")
		h.wantView("initialize", "resources/read")
	})
}

// TestTrafficTabEmpty: a server with no frames yet says so.
func TestTrafficTabEmpty(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("enter", "9", "enter")
		h.wantView("no traffic yet", "open: nothing selected (no frames yet)")
	})
}

// TestTrafficFilterCountsWhatItShows: with a filter by method, the
// traffic tab's summary counts the frames it shows of all it has
// (golden); without one, all of them.
func TestTrafficFilterCountsWhatItShows(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Servers[5].Traffic = trafficFixture()
		s.Servers[5].TrafficDropped = 12
		h := newHarness(t, newFakeEngine(s), 100, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("enter", "9", "/", "tools", "enter")
		h.wantView("2 of 7 frames (12 older let go) · enter shows one · / filters by method", "/tools")
		golden(t, "detail_traffic_filtered", h.view())
		h.keys("esc")
		if v := h.view(); strings.Contains(v, "of 7 frames") || !strings.Contains(v, "\n7 frames (12 older let go)") {
			t.Fatalf("without the filter:\n%s", v)
		}
	})
}
