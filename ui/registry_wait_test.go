package ui

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/ui/registry"
)

// slowRegistry answers a search only when the test sends the answer.
type slowRegistry struct {
	*fakeRegistry
	answer chan error
}

func (r slowRegistry) Search(ctx context.Context, _ string) ([]registry.Entry, error) {
	select {
	case err := <-r.answer:
		return nil, err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// TestRegistrySearchShowsTheWaitAndTheFailureInFull: while the registry
// does not answer, + shows a spinner and the seconds waited; when it
// cannot be reached, the sentence that says so is shown whole, wrapped on
// a narrow screen (golden), never cut.
func TestRegistrySearchShowsTheWaitAndTheFailureInFull(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 60, 20)
		h.keys("esc")
		reg := slowRegistry{fakeRegistry: newFakeRegistry(t), answer: make(chan error)}
		h.m.env.reg = reg
		h.keys("+", "files", "enter")
		h.wantView("searching the MCP Registry… 0s")
		time.Sleep(7 * time.Second) // the bubble's clock: nothing waits
		h.settle()
		h.wantView("searching the MCP Registry… 7s")

		reg.answer <- &registry.UnreachableError{URL: registry.DefaultURL, Err: syscall.ECONNREFUSED}
		h.settle()
		v := h.view()
		flat := strings.Join(strings.Fields(v), " ")
		want := "✗ could not reach the MCP Registry at " + registry.DefaultURL + " (offline?); set MCPDECK_REGISTRY_URL to use another"
		if !strings.Contains(flat, want) || strings.Contains(v, "searching") {
			t.Fatalf("the failure is not shown whole:\n%s", v)
		}
		golden(t, "registry_unreachable_60x20", v)
	})
}
