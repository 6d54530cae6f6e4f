package batch

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
)

// batchInput20 is 20 requests to the demo calculator (19 tool calls and a
// prompt) with a comment, a blank line and a malformed line in the middle;
// want is the text output expected for it, one line per request.
func batchInput20() (in string, want []string) {
	var lines []string
	add := func(s string) { lines = append(lines, s) }
	add("# twenty requests")
	for i := 1; i <= 19; i++ {
		if i == 10 {
			add("")
			add(`{"tool": "calculate", "arguments": {"op": "add", "a": 1,}}`) // malformed
			want = append(want, fmt.Sprintf("%d: error: not a request object:", len(lines)))
		}
		add(fmt.Sprintf(`{"tool": "calculate", "arguments": {"op": "multiply", "a": %d, "b": 3}}`, i))
		want = append(want, fmt.Sprintf("%d: %d", len(lines), 3*i))
	}
	add(`{"prompt": "explain", "arguments": {"expression": "6*7"}}`)
	want = append(want, fmt.Sprintf("%d: user: Explain step by step: 6*7", len(lines)))
	return strings.Join(lines, "\n") + "\n", want
}

// TestBatchRunsInOneSessionInInputOrder runs 20 requests at -P 4 against a
// real stdio server: one process is started for all of them, the results
// come in input order, and the malformed line fails alone (exit 1).
func TestBatchRunsInOneSessionInInputOrder(t *testing.T) {
	e := clitest.NewEnv(t)
	starts := filepath.Join(t.TempDir(), "starts")
	cfg := clitest.EngServers(t, map[string]any{
		"calc": map[string]any{"command": "sh", "args": []string{"-c", "echo started >> " + textsafe.QuoteArg(starts) + "; exec " + textsafe.QuoteArg(clitest.Binary) + " demo-server calculator"}},
	})
	in, want := batchInput20()
	r := e.RunStdin(in, "--mcp-config", cfg, "batch", "calc", "-P", "4")
	if r.Code != 1 {
		t.Fatalf("want exit 1 (one line failed), got %s", r)
	}
	got := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("want %d result lines, got %d:\n%s", len(want), len(got), r)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) || (!strings.HasSuffix(want[i], "error: not a request object:") && got[i] != want[i]) {
			t.Errorf("result %d = %q, want %q", i, got[i], want[i])
		}
	}
	if !strings.Contains(r.Stderr, "1 request of the batch failed") {
		t.Errorf("stderr: %s", r.Stderr)
	}
	b, err := os.ReadFile(starts)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "started"); n != 1 {
		t.Errorf("the server was started %d times for one batch, want 1", n)
	}
}

// TestBatchJSONLines checks --json: one compact object per input request
// with its line number, the result under MCP's field names, and the error
// of a failed line (no result); arguments are validated as for call.
func TestBatchJSONLines(t *testing.T) {
	e := clitest.NewEnv(t)
	cfg := clitest.EngServers(t, nil)
	in := strings.Join([]string{
		`{"tool": "calculate", "arguments": {"op": "add", "a": 1, "b": 2}}`,
		`{"tool": "calculate", "arguments": {"op": "add", "a": "one", "b": 2}}`,
		`{"tool": "calculate", "arguments": {"op": "divide", "a": 1, "b": 0}}`,
		`# comment`,
		`{"read": "calc://x", "tool": "calculate"}`,
		`{"tool": "nope"}`,
		`{"prompt": "explain", "arguments": {"expression": "1+1"}}`,
	}, "\n")
	r := e.RunStdin(in, "--mcp-config", cfg, "--json", "batch", "calc")
	if r.Code != 1 {
		t.Fatalf("want exit 1, got %s", r)
	}
	type out struct {
		Line   int             `json:"line"`
		Result json.RawMessage `json:"result"`
		Error  string          `json:"error"`
	}
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	if len(lines) != 6 {
		t.Fatalf("want 6 JSON lines, got %s", r)
	}
	var got []out
	for _, l := range lines {
		var o out
		dec := json.NewDecoder(strings.NewReader(l))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		got = append(got, o)
	}
	wantLines := []int{1, 2, 3, 5, 6, 7}
	for i, o := range got {
		if o.Line != wantLines[i] {
			t.Errorf("object %d has line %d, want %d", i, o.Line, wantLines[i])
		}
	}
	var res struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		Structured map[string]any `json:"structuredContent"`
		IsError    bool           `json:"isError"`
	}
	if err := json.Unmarshal(got[0].Result, &res); err != nil || got[0].Error != "" ||
		res.Structured["result"] != 3.0 || len(res.Content) != 1 || res.Content[0].Text != "3" {
		t.Errorf("line 1: %s (%v)", lines[0], err)
	}
	if got[1].Result != nil || !strings.Contains(got[1].Error, `field "a"`) {
		t.Errorf("line 2 (invalid arguments, never sent): %s", lines[1])
	}
	res.IsError = false
	if err := json.Unmarshal(got[2].Result, &res); err != nil || !res.IsError || !strings.Contains(got[2].Error, "reported an error") {
		t.Errorf("line 3 (a tool error keeps its result): %s", lines[2])
	}
	if got[3].Result != nil || !strings.Contains(got[3].Error, "only one of") {
		t.Errorf("line 5 (two kinds): %s", lines[3])
	}
	if got[4].Result != nil || !strings.Contains(got[4].Error, "no tool") {
		t.Errorf("line 6 (unknown tool): %s", lines[4])
	}
	var pr struct { // MCP's prompt message: role and content, as sent
		Messages []struct {
			Role    string `json:"role"`
			Content struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(got[5].Result, &pr); err != nil || len(pr.Messages) != 1 || pr.Messages[0].Role != "user" ||
		pr.Messages[0].Content.Type != "text" || pr.Messages[0].Content.Text != "Explain step by step: 1+1" {
		t.Errorf("line 7 (prompt): %s", lines[5])
	}
}

// TestBatchUsageErrors: a missing server and a bad -P are usage errors
// (exit 2); an unknown server is a failure (exit 1) before any line runs.
func TestBatchUsageErrors(t *testing.T) {
	e := clitest.NewEnv(t)
	cfg := clitest.EngServers(t, nil)
	for _, args := range [][]string{{"batch"}, {"batch", "calc", "-P", "0"}, {"batch", "calc", "-P", "x"}, {"batch", "a", "b"}} {
		if r := e.RunStdin("", append([]string{"--mcp-config", cfg}, args...)...); r.Code != 2 {
			t.Errorf("%v: want exit 2, got %s", args, r)
		}
	}
	if r := e.RunStdin(`{"tool": "calculate"}`, "--mcp-config", cfg, "batch", "nope"); r.Code != 1 || r.Stdout != "" {
		t.Errorf("unknown server: want exit 1 and no output, got %s", r)
	}
	if r := e.RunStdin("\n# nothing\n", "--mcp-config", cfg, "batch", "calc"); r.Code != 0 || r.Stdout != "" {
		t.Errorf("only blank and comment lines: want exit 0 and no output, got %s", r)
	}
}

// TestBatchSaysTheConnectionWasLost: a request during which the server
// process exits fails with the loss and the reconnect attempt, in text and
// in --json.
func TestBatchSaysTheConnectionWasLost(t *testing.T) {
	e := clitest.NewEnv(t)
	fault := clitest.BuildFaultServer(t, t.TempDir())
	cfg := clitest.EngServers(t, map[string]any{"crashy": map[string]any{"command": fault}})
	in := `{"tool": "echo", "arguments": {"text": "first"}}` + "\n" + `{"tool": "crash"}` + "\n"
	lost := "calling crash on crashy: the connection was lost during the call (the server process exited with code 3: crashing with code 3); reconnecting (attempt 1/5)"
	r := e.RunStdin(in, "--mcp-config", cfg, "batch", "crashy")
	if r.Code != 1 || r.Stdout != "1: first\n2: error: "+lost+".\n" {
		t.Errorf("text: %s", r)
	}
	r = e.RunStdin(in, "--mcp-config", cfg, "batch", "crashy", "--json")
	var line struct {
		Line  int    `json:"line"`
		Error string `json:"error"`
	}
	out := strings.Split(strings.TrimSpace(r.Stdout), "\n")
	if r.Code != 1 || len(out) != 2 || json.Unmarshal([]byte(out[1]), &line) != nil || line.Line != 2 || line.Error != lost {
		t.Errorf("--json: %s", r)
	}
}

// TestBatchGoesOnAfterTheReconnect: the line after one during which the
// server process exited waits for the server to reconnect, then runs: a
// batch does not fail every line after a loss.
func TestBatchGoesOnAfterTheReconnect(t *testing.T) {
	e := clitest.NewEnv(t)
	fault := clitest.BuildFaultServer(t, t.TempDir())
	cfg := clitest.EngServers(t, map[string]any{"crashy": map[string]any{"command": fault}})
	in := `{"tool": "crash"}` + "\n" + `{"tool": "echo", "arguments": {"text": "after"}}` + "\n"
	r := e.RunStdin(in, "--mcp-config", cfg, "batch", "crashy")
	if r.Code != 1 || !strings.HasPrefix(r.Stdout, "1: error: calling crash on crashy: the connection was lost") || !strings.HasSuffix(r.Stdout, "\n2: after\n") {
		t.Errorf("the line after the loss: %s", r)
	}
}

// TestHelpExampleRuns feeds the requests of batch's --help example to
// server-everything, the server it names: each one answers (exit 0), so
// the example can be copied as it is.
func TestHelpExampleRuns(t *testing.T) {
	npmDir := clitest.NeedNpxEverything(t)
	e := clitest.NewEnv(t)
	script := filepath.Join(npmDir, "@modelcontextprotocol", "server-everything", "dist", "index.js")
	cfg := clitest.EngServers(t, map[string]any{"everything": map[string]any{"command": "node", "args": []string{script, "stdio"}}})
	var lines []string
	for _, m := range regexp.MustCompile(`'(\{.*?\})'`).FindAllStringSubmatch(NewCmd(&clicore.Globals{}).Example, -1) {
		lines = append(lines, m[1])
	}
	if len(lines) != 3 {
		t.Fatalf("the example has %d requests, want one of each kind: %q", len(lines), lines)
	}
	r := e.RunStdin(strings.Join(lines, "\n")+"\n", "--mcp-config", cfg, "batch", "everything", "-P", "4", "--json")
	if r.Code != 0 || strings.Count(r.Stdout, `"result"`) != 3 {
		t.Errorf("the --help example fails on server-everything:\n%s", r)
	}
}
