package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// floodID prefixes the JSON-RPC ids of the requests -elicit-flood and
// -sample-flood send, so their answers are told apart from mcp-go's own
// (numeric) ids and kept from it.
const floodID = "flood-"

// flood is what -elicit-flood and -sample-flood send on stdio, and the
// client's answers to it: the requests are written raw once the client
// says it is initialized, all at once, and every answer is tallied by its
// JSON-RPC error ("CODE MESSAGE") or as a result. The tool flood_answers
// reports the tally.
type flood struct {
	elicit, sample int
	write          func(string) // one whole line to the client

	once    sync.Once
	mu      sync.Mutex
	results int
	errors  map[string]int
	changed chan struct{} // closed and replaced on every answer
}

func newFlood(c config, write func(string)) *flood {
	if c.elicitFlood <= 0 && c.sampleFlood <= 0 {
		return nil
	}
	return &flood{elicit: c.elicitFlood, sample: c.sampleFlood, write: write, errors: map[string]int{}, changed: make(chan struct{})}
}

// initialized starts the flood, once, on its own goroutine (the caller
// reads the client's answers).
func (f *flood) initialized() {
	f.once.Do(func() { go f.send() })
}

// send writes every request of the flood.
func (f *flood) send() {
	for i := range f.elicit {
		f.request(i, string(mcp.MethodElicitationCreate), askForm(fmt.Sprintf("Flood %d: your name?", i), "name"))
	}
	for i := range f.sample {
		f.request(f.elicit+i, string(mcp.MethodSamplingCreateMessage), map[string]any{
			"messages":  []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": fmt.Sprintf("flood %d", i)}}},
			"maxTokens": 10,
		})
	}
}

func (f *flood) request(n int, method string, params any) {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": fmt.Sprintf("%s%d", floodID, n), "method": method, "params": params})
	if err == nil {
		f.write(string(b))
	}
}

// seen looks at one line from the client: an answer to the flood is
// tallied and kept from mcp-go (seen says so), the client's initialized
// notification starts the flood once it passed.
func (f *flood) seen(line []byte) (answer bool) {
	var m map[string]any
	if f == nil || json.Unmarshal(line, &m) != nil {
		return false
	}
	if m["method"] == string(mcp.MethodNotificationInitialized) {
		defer f.initialized()
		return false
	}
	return f.answer(m)
}

// answer tallies m when it answers a flood request and says whether it did.
func (f *flood) answer(m map[string]any) bool {
	id, _ := m["id"].(string)
	if _, isRequest := m["method"]; isRequest || !strings.HasPrefix(id, floodID) {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if e, ok := m["error"].(map[string]any); ok {
		f.errors[fmt.Sprintf("%v %v", e["code"], e["message"])]++
	} else {
		f.results++
	}
	close(f.changed)
	f.changed = make(chan struct{})
	return true
}

// tally waits until at least want answers came (or ctx ends) and returns
// them as JSON: {"answered":N,"results":R,"errors":{"CODE MESSAGE":N}}.
func (f *flood) tally(ctx context.Context, want int) string {
	for {
		f.mu.Lock()
		n, ch := f.results, f.changed
		for _, c := range f.errors {
			n += c
		}
		if n >= want || ctx.Err() != nil {
			b, _ := json.Marshal(map[string]any{"answered": n, "results": f.results, "errors": f.errors})
			f.mu.Unlock()
			return string(b)
		}
		f.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
		}
	}
}

// addFlood adds the tool flood_answers{want}: the tally of the flood's
// answers once want of them came.
func addFlood(s *server.MCPServer, f *flood) {
	if f == nil {
		return
	}
	s.AddTool(mcp.NewTool("flood_answers", mcp.WithDescription("How the client answered the flood, once want answers came"), mcp.WithNumber("want")),
		func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(f.tally(ctx, r.GetInt("want", 0))), nil
		})
}
