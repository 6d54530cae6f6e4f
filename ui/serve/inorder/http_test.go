package inorder

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// steps is how many progress notifications the test tool sends, with no
// pause before its result: the last one is sent just before it.
const steps = 3

// progressServer is an MCP server whose tool "work" sends steps progress
// notifications through Send, then returns.
func progressServer() *server.MCPServer {
	srv := server.NewMCPServer("t", "1", server.WithToolCapabilities(true))
	srv.AddTool(mcp.NewTool("work"), func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		for i := 1; i <= steps; i++ {
			if err := Send(ctx, srv, string(mcp.MethodNotificationProgress), map[string]any{
				"progressToken": r.Params.Meta.ProgressToken, "progress": i, "total": steps,
			}); err != nil {
				return nil, err
			}
		}
		return mcp.NewToolResultText("done"), nil
	})
	return srv
}

// TestProgressPrecedesTheResultOverHTTP: with a client's standalone GET
// stream open (mcp-go then has two readers of the session's
// notifications), every progress notification of a call arrives on the
// call's own POST stream, before its result, and none on the GET stream.
// mcp-go alone (SendNotificationToClient) sends some of them to the GET
// stream, where they race the result.
func TestProgressPrecedesTheResultOverHTTP(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []server.StreamableHTTPOption
	}{
		{"plain", nil},
		{"event store", []server.StreamableHTTPOption{server.WithEventStore(server.NewInMemoryEventStore())}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := server.NewStreamableHTTPServer(progressServer(), append([]server.StreamableHTTPOption{server.WithStateful(true)}, tc.opts...)...)
			ts := httptest.NewServer(HTTP(h))
			defer func() {
				ts.Close()
				_ = h.Shutdown(context.Background())
			}()
			c := &rawClient{t: t, url: ts.URL}
			c.initialize()
			getEvents := c.listen()
			defer c.cancelListen() // before the server closes: it waits for the stream
			for call := 1; call <= 20; call++ {
				got := c.call(call)
				want := make([]string, 0, steps+1)
				for i := 1; i <= steps; i++ {
					want = append(want, fmt.Sprintf("progress %d/%d token %d", i, steps, call))
				}
				want = append(want, "result done")
				if strings.Join(got, "; ") != strings.Join(want, "; ") {
					t.Fatalf("call %d: POST stream carried\n  %s\nwant\n  %s", call, strings.Join(got, "; "), strings.Join(want, "; "))
				}
			}
			c.cancelListen()
			for ev := range getEvents {
				if strings.HasPrefix(ev, "progress") {
					t.Errorf("the GET stream carried %s", ev)
				}
			}
		})
	}
}

// rawClient speaks streamable HTTP by hand, to see which stream carries what.
type rawClient struct {
	t            *testing.T
	url, session string
	cancelListen context.CancelFunc
}

func (c *rawClient) post(body string) *http.Response {
	c.t.Helper()
	req, err := http.NewRequestWithContext(c.t.Context(), http.MethodPost, c.url, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp
}

func (c *rawClient) initialize() {
	resp := c.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	c.session = resp.Header.Get("Mcp-Session-Id")
	if c.session == "" {
		c.t.Fatal("no session id")
	}
	resp = c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	resp.Body.Close()
}

// listen opens the standalone GET stream; its events come on the channel,
// closed when cancelListen ended the stream.
func (c *rawClient) listen() <-chan string {
	ctx, cancel := context.WithCancel(c.t.Context())
	c.cancelListen = cancel
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", c.session)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		c.t.Fatalf("GET: %s", resp.Status)
	}
	out := make(chan string, 1000)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		readEvents(resp.Body, func(ev string) bool { out <- ev; return true })
	}()
	return out
}

// call runs tool "work" with progress token n and returns what its POST
// stream carried, up to the result.
func (c *rawClient) call(n int) []string {
	c.t.Helper()
	resp := c.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"work","arguments":{},"_meta":{"progressToken":%d}}}`, n, n))
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		return []string{"not SSE: " + ct + " " + string(b)}
	}
	var got []string
	readEvents(resp.Body, func(ev string) bool {
		got = append(got, ev)
		return !strings.HasPrefix(ev, "result")
	})
	return got
}

// readEvents calls each with every SSE event's message, summarized, until
// the body ends or each returns false.
func readEvents(body io.Reader, each func(string) bool) {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || strings.TrimSpace(data) == "" {
			continue
		}
		if !each(summary(data)) {
			return
		}
	}
}

// summary is one message as the test compares it.
func summary(data string) string {
	var m struct {
		Method string         `json:"method"`
		Params map[string]any `json:"params"`
		Result *struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if json.Unmarshal([]byte(data), &m) != nil {
		return "unreadable " + data
	}
	switch {
	case m.Method == string(mcp.MethodNotificationProgress):
		return fmt.Sprintf("progress %v/%v token %v", m.Params["progress"], m.Params["total"], m.Params["progressToken"])
	case m.Result != nil && len(m.Result.Content) > 0:
		return "result " + m.Result.Content[0].Text
	default:
		return data
	}
}
