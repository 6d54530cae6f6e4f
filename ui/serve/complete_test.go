package serve

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestCompletionFirstWaitsForServers: an agent whose first request is
// completion/complete (the conformance suite's completion-complete through
// serve on stdio) finds the prompt of a server still starting: the
// completion waits for the servers to settle, as a first call does.
func TestCompletionFirstWaitsForServers(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault([]string{"-ask", "-start-delay", "300ms"}, nil)}, Options{}, nil)
	a := r.stdioAgent()
	req := mcp.CompleteRequest{}
	req.Params.Ref = mcp.PromptReference{Type: "ref/prompt", Name: "fa__greet"}
	req.Params.Argument = mcp.CompleteArgument{Name: "name", Value: "A"}
	if _, err := a.Complete(t.Context(), req); err != nil && strings.Contains(err.Error(), "offers no prompt") {
		t.Fatalf("completion/complete before the server connected: %v", err)
	}
}
