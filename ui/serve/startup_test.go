package serve

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// TestFirstListWaitsForTheUnknown runs on a fake clock, on snapshots: a
// tools/list made while a server serve knows no lists of is connecting is
// answered when it joins, or with the servers that are ready at the
// latest when the wait (the connect timeout, as New starts it) ends, and
// at once when every server settled (one connected, one failed) — a
// failed server never holds it. The slow server joining later sends
// tools/, prompts/ and resources/list_changed, and the next list,
// answered at once, holds it.
func TestFirstListWaitsForTheUnknown(t *testing.T) {
	fast := up("fast", "a")
	connecting := engine.ServerSnapshot{Name: "slow", State: model.StatePending, Runnable: true}
	failed := engine.ServerSnapshot{Name: "slow", State: model.StateFailed, Runnable: true}
	for _, c := range []struct {
		name   string
		slow   engine.ServerSnapshot // the slow server when the agent lists
		joinAt time.Duration         // when it connects; 0: after the first answer
		at     time.Duration         // when the first list is answered
		want   []string
	}{
		{"still connecting when the wait ends", connecting, 0, connectTimeout, []string{"fast__a"}},
		{"connects after 5 s", connecting, 5 * time.Second, 5 * time.Second, []string{"fast__a", "slow__b"}},
		{"failed", failed, 0, 0, []string{"fast__a"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := offline(t)
				g := r.gw
				g.start.begin(connectTimeout) // as New starts it
				t.Cleanup(g.start.end)
				applyAll(g, fast, c.slow)
				// In process: mcp-go's stdio session is one for the whole
				// program, made outside the bubble, so the fake clock could
				// not tell it idle.
				ic, err := client.NewInProcessClient(g.srv)
				if err != nil {
					t.Fatal(err)
				}
				a := startAgent(t, ic)
				t.Cleanup(func() { _ = ic.Close() })
				start := time.Now()
				type answer struct {
					names []string
					at    time.Duration
				}
				got := make(chan answer, 1)
				go func() { got <- answer{a.toolNames(t), time.Since(start)} }()
				if c.joinAt > 0 {
					time.Sleep(c.joinAt)
					applyAll(g, fast, up("slow", "b"))
				}
				synctest.Wait()
				var ans answer
				select {
				case ans = <-got:
				default:
					if c.at == connectTimeout {
						ans = <-got // the fake clock runs to the wait's end
					} else {
						t.Fatalf("no answer at %s", time.Since(start))
					}
				}
				if ans.at != c.at || !slices.Equal(ans.names, c.want) {
					t.Fatalf("first list = %v at %s, want %v at %s", ans.names, ans.at, c.want, c.at)
				}
				if c.joinAt > 0 {
					return
				}
				applyAll(g, fast, up("slow", "b"))
				for _, m := range []mcp.MCPMethod{mcp.MethodNotificationToolsListChanged, mcp.MethodNotificationPromptsListChanged, mcp.MethodNotificationResourcesListChanged} {
					a.note(t, string(m), "slow joining")
				}
				now := time.Since(start)
				if names := a.toolNames(t); !slices.Equal(names, []string{"fast__a", "slow__b"}) || time.Since(start) != now {
					t.Errorf("after list_changed: %v after %s, want fast__a and slow__b at once", names, time.Since(start)-now)
				}
			})
		})
	}
}
