package serve

import (
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine"
)

// TestModernAgent: an agent on protocol 2026-07-28 (stateless requests,
// server/discover instead of initialize) lists and calls through the
// gateway over HTTP. That protocol has no server-to-client requests, so a
// server's elicitation gets the headless answer (here accept-defaults),
// not the agent's, even though the agent can answer input requests: the
// gateway does not relay them as input-required results (a known limit).
func TestModernAgent(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, func(eo *engine.Options) {
		eo.Elicit, _ = engine.ElicitPolicy("accept-defaults")
	})
	const token = "a-test-token-long-enough"
	base := r.serveHTTP(HTTPOptions{Token: token})
	tr, err := transport.NewStreamableHTTP(base+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithElicitationHandler(elicitAnswer{asked: make(chan string, 1)}))
	t.Cleanup(func() { _ = c.Close() })
	a := startAgent(t, c)
	if v := c.ProtocolVersion(); v != mcp.ProtocolVersion20260728 {
		t.Fatalf("negotiated %q, want 2026-07-28", v)
	}
	if names := a.toolNames(t); !slices.Contains(names, "fa__echo") {
		t.Errorf("tools = %v", names)
	}
	if got, isErr := a.call(t, "fa__echo", map[string]any{"text": "modern"}); isErr || got != "modern" {
		t.Errorf("fa__echo = %q (error %v)", got, isErr)
	}
	if got, _ := a.call(t, "fa__elicit", nil); !strings.Contains(got, "Ada") {
		t.Errorf("fa__elicit = %q, want the headless default Ada", got)
	}
}
