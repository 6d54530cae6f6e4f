package ui

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/faultlaunch"
)

// TestLiveCallLostSaysReconnecting: a tool call whose server process exits
// during the call shows, in the result view, that the connection was lost
// during the call, why, and the reconnect attempt under way.
func TestLiveCallLostSaysReconnecting(t *testing.T) {
	bin := needFaultBin(t)
	h := startLive(t, waitForR(liveServers(t, map[string]any{"crashy": map[string]any{"command": bin}})), 200, 40)
	h.until("● crashy")
	h.keys("c", "/", "crash", "enter", "enter") // filter, then pick
	h.until("Call crashy › crash", "┃ code")
	h.keys("enter")
	h.until("✗ error", "calling crash on crashy: the connection was lost during the call "+
		"(the server process exited with code 3: crashing with code 3); reconnecting (attempt 1/5)")
}

// TestLiveReconnectSaysWhatHappened kills an HTTP server: r (retry now)
// says that the reconnect failed and why, and when the next attempt runs,
// as the why panel does; once the server is back, r says it reconnected.
func TestLiveReconnectSaysWhatHappened(t *testing.T) {
	bin := needFaultBin(t)
	url, cmd := faultlaunch.Start(t, bin, "-http")
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	h := startLive(t, waitForR(liveServers(t, map[string]any{"web": map[string]any{"type": "http", "url": url}})), 200, 40)
	t.Cleanup(func() { _ = cmd.Process.Kill() }) // before the leak check startLive made
	h.until("● web")
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	h.until("◌ web", "attempt 1/5 · retry in")
	h.keys("r")
	refused := "connection refused at " + host + ": is the server running?"
	h.until("reconnect web failed: "+refused+"; next attempt 2/5 at ", "attempt 2/5 · retry in")
	h.keys("enter")
	h.until("• Reconnect attempt 1/5 failed at ", refused, "• Next attempt 2/5 at ")

	faultlaunch.StartAt(t, bin, "-http", host)
	h.keys("r")
	h.until("reconnected web", "● web  dynamic · http · connected")
}
