package engcmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/ui/contextcost"
)

// TestContextCountsMatchTheTokenizer: `context --json` counts each tool's
// definition as the server sent it (checked against the tokenizer on the
// definition `tools --json` shows), sums them per server and in total,
// marks a server over the limit with the deny rules that bring it under,
// and says the counts are estimates for other models.
func TestContextCountsMatchTheTokenizer(t *testing.T) {
	e := clitest.NewEnv(t)
	fault := clitest.BuildFaultServer(t, t.TempDir())
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"f":   map[string]any{"command": fault},
		"big": map[string]any{"command": fault, "args": []string{"-tools", "300", "-desc-bytes", "200", "-plain-desc"}},
	}})
	var rep contextReport
	if err := json.Unmarshal([]byte(e.OK("--mcp-config", string(cfg), "context", "--json").Stdout), &rep); err != nil {
		t.Fatal(err)
	}
	var listed []struct {
		Server string `json:"server"`
		Items  []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(e.OK("--mcp-config", string(cfg), "tools", "f", "--json").Stdout), &listed); err != nil || len(listed) != 1 {
		t.Fatalf("tools --json: %v", err)
	}
	var c contextcost.Counter
	want := map[string]int{}
	for _, it := range listed[0].Items {
		want[it.Name], _ = c.ToolTokens(contextcost.Tool{Name: it.Name, Description: it.Description, InputSchema: it.InputSchema})
	}
	total := 0
	for _, s := range rep.Servers {
		total += s.Tokens
		sum := 0
		for _, tc := range s.Tools {
			sum += tc.Tokens
			if s.Server == "f" && tc.Tokens != want[tc.Name] {
				t.Errorf("tool %s: %d tokens, the tokenizer says %d", tc.Name, tc.Tokens, want[tc.Name])
			}
		}
		if sum != s.Tokens {
			t.Errorf("server %s: tools sum to %d, server says %d", s.Server, sum, s.Tokens)
		}
		if s.Server == "big" && (!s.Over || len(s.Disable) == 0 || !strings.HasPrefix(s.Disable[0], "mcp__big__")) {
			t.Errorf("big (%d tokens) not marked with deny rules: %+v", s.Tokens, s.Disable)
		}
	}
	if len(rep.Servers) != 2 || total != rep.Total || len(rep.Largest) != 10 || rep.Tokenizer != "o200k_base" || !strings.Contains(rep.Note, "estimates") {
		t.Fatalf("report: %d servers, total %d (sum %d), %d largest, %q, %q", len(rep.Servers), rep.Total, total, len(rep.Largest), rep.Tokenizer, rep.Note)
	}
}
