package transports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
)

// The servers below answer initialize, then answer tools/list with a reply
// of 16 limits in short lines: the way a reply of 1 GB once took mcpdeck to
// 3 GB while every line stayed under the old per-line limit.
const hugeReply = 16 * testLimit

// rpcMsg is what the fake servers read of a client message.
type rpcMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// answer returns the reply to m ("" for notifications); huge reports that
// m is hugeOn, whose reply is the oversized list written by writeHugeList.
func answer(m rpcMsg, hugeOn string) (reply string, huge bool) {
	switch {
	case len(m.ID) == 0:
		return "", false
	case m.Method == hugeOn:
		return "", true
	case m.Method == "initialize":
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"big","version":"1"}}}`, m.ID), false
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no"}}`, m.ID), false
}

// writeHugeList writes a valid tools/list result of hugeReply bytes in
// short lines, each starting with prefix ("data: " inside an SSE event).
// It stops at the first write error (the client hung up).
func writeHugeList(w io.Writer, id json.RawMessage, prefix string) {
	lines := []string{fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"tools":[`, id)}
	tool := `{"name":"t","inputSchema":{"type":"object"}},`
	for n := 0; n < hugeReply; n += len(tool) + 1 {
		lines = append(lines, tool)
	}
	lines = append(lines, `{"name":"t","inputSchema":{"type":"object"}}]}}`)
	for _, l := range lines {
		if _, err := io.WriteString(w, prefix+l+"\n"); err != nil {
			return
		}
	}
}

// countingClient is an HTTP client whose connections count the bytes read
// from the server into n.
func countingClient(t *testing.T, n *atomic.Int64) *http.Client {
	var d net.Dialer
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &countingConn{Conn: c, n: n}, nil
	}}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// expectTooLarge lists tools on c, whose server answers with hugeReply, and
// checks that the connection ended with ErrMessageTooLarge, naming the
// limit, having read at most the limit and one buffer of the reply.
func expectTooLarge(t *testing.T, c *Conn, read *atomic.Int64) error {
	t.Helper()
	before := read.Load()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	_, err := c.Client().ListTools(ctx, mcp.ListToolsRequest{})
	if err == nil {
		t.Fatal("tools/list of 1 MB succeeded under a 64 KB limit")
	}
	select {
	case <-c.Done():
	case <-ctx.Done():
		t.Fatalf("the connection lives on after an oversized message (list error %v)", err)
	}
	if !errors.Is(c.Err(), ErrMessageTooLarge) || Classify(c.Err()) != ClassTooLarge {
		t.Fatalf("Err = %v (%v); list error %v", c.Err(), Classify(c.Err()), err)
	}
	h := Humanize(c.Err())
	if limit := strings.Contains(h, "larger than 64 KB") || strings.Contains(h, "more than 1024 lines"); !limit || !strings.Contains(h, t.Name()) {
		t.Fatalf("Humanize = %q", h)
	}
	got := read.Load() - before
	t.Logf("read %d bytes of a %d-byte reply under a %d-byte limit", got, hugeReply, testLimit)
	if got > testLimit+64<<10 {
		t.Fatalf("read %d bytes of the reply for a limit of %d", got, testLimit)
	}
	return err
}

// streamableServer is a minimal streamable HTTP server answering hugeOn
// with hugeReply; sse selects SSE replies, and a GET stream that first
// carries notes notifications, each small, together more than the limit.
func streamableServer(t *testing.T, hugeOn string, sse bool, notes int) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodDelete:
			return
		case http.MethodGet:
			if !sse {
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
			w.Header().Set("Content-Type", "text/event-stream")
			pad := strings.Repeat("z", 500)
			for range notes {
				fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\n"+
					"data: \"params\":{\"level\":\"info\",\"data\":\"%s\"}}\n\n", pad)
			}
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		var m rpcMsg
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		reply, huge := answer(m, hugeOn)
		switch {
		case huge && sse:
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, "event: message\n")
			writeHugeList(w, m.ID, "data: ")
			_, _ = io.WriteString(w, "\n")
		case huge:
			w.Header().Set("Content-Type", "application/json")
			writeHugeList(w, m.ID, "")
		case reply == "":
			w.WriteHeader(http.StatusAccepted)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Mcp-Session-Id", "s1")
			_, _ = io.WriteString(w, reply)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

func TestHTTPOversizedJSONBodyEndsTheConnection(t *testing.T) {
	var read atomic.Int64
	c := open(t, model.ServerConfig{Type: model.TransportHTTP, URL: streamableServer(t, "tools/list", false, 0)},
		Options{MaxMessageSize: testLimit, HTTPClient: countingClient(t, &read)})
	if err := expectTooLarge(t, c, &read); !errors.Is(err, ErrMessageTooLarge) {
		t.Fatalf("list error %v does not match ErrMessageTooLarge", err)
	}
}

func TestHTTPOversizedSSEEventEndsTheConnection(t *testing.T) {
	const notes = 4 * testLimit / 600
	var read atomic.Int64
	rec := newRecorder()
	c := open(t, model.ServerConfig{Type: model.TransportHTTP, URL: streamableServer(t, "tools/list", true, notes)},
		Options{MaxMessageSize: testLimit, HTTPClient: countingClient(t, &read), OnNotification: rec.on})
	// Many small events, four limits together, pass on the long-lived stream.
	rec.waitCount(t, "notifications/message", notes)
	expectTooLarge(t, c, &read)
}

// sseServer is a minimal legacy HTTP+SSE server: replies go out as events
// on the stream.
func sseServer(t *testing.T) string {
	replies := make(chan func(io.Writer), 8)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sse", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "event: endpoint\ndata: /message\n\n")
		w.(http.Flusher).Flush()
		for {
			select {
			case write := <-replies:
				write(w)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	})
	mux.HandleFunc("POST /message", func(w http.ResponseWriter, r *http.Request) {
		var m rpcMsg
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusAccepted)
		reply, huge := answer(m, "tools/list")
		switch {
		case huge:
			replies <- func(w io.Writer) {
				_, _ = io.WriteString(w, "event: message\n")
				writeHugeList(w, m.ID, "data: ")
				_, _ = io.WriteString(w, "\n")
			}
		case reply != "":
			replies <- func(w io.Writer) { _, _ = io.WriteString(w, "event: message\ndata: "+reply+"\n\n") }
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/sse"
}

func TestSSEOversizedEventEndsTheConnection(t *testing.T) {
	var read atomic.Int64
	c := open(t, model.ServerConfig{Type: model.TransportSSE, URL: sseServer(t)},
		Options{MaxMessageSize: testLimit, HTTPClient: countingClient(t, &read)})
	expectTooLarge(t, c, &read)
}

// wsServer is a minimal MCP server over WebSocket.
func wsServer(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{wsSubprotocol}})
		if err != nil {
			return
		}
		defer conn.CloseNow()
		ctx := r.Context()
		for {
			_, msg, err := conn.Read(ctx)
			if err != nil {
				return
			}
			var m rpcMsg
			_ = json.Unmarshal(msg, &m)
			reply, huge := answer(m, "tools/list")
			switch {
			case huge:
				mw, err := conn.Writer(ctx, websocket.MessageText)
				if err != nil {
					return
				}
				writeHugeList(mw, m.ID, "")
				_ = mw.Close()
			case reply != "":
				if err := conn.Write(ctx, websocket.MessageText, []byte(reply)); err != nil {
					return
				}
			}
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

func TestWSOversizedMessageEndsTheConnection(t *testing.T) {
	var read atomic.Int64
	c := open(t, model.ServerConfig{Type: model.TransportWS, URL: wsServer(t)},
		Options{MaxMessageSize: testLimit, HTTPClient: countingClient(t, &read), PingInterval: -1})
	expectTooLarge(t, c, &read)
}

// TestStdioOversizedLineEndsTheConnection: a line over the limit ends the
// connection with the limit named (it is not skipped as noise).
func TestStdioOversizedLineEndsTheConnection(t *testing.T) {
	c := open(t, stdioCfg(), Options{MaxMessageSize: testLimit})
	_, _ = call(t.Context(), c, "huge", map[string]any{"mb": 1})
	<-c.Done()
	if !errors.Is(c.Err(), ErrMessageTooLarge) || Classify(c.Err()) != ClassTooLarge {
		t.Fatalf("Err = %v (%v)", c.Err(), Classify(c.Err()))
	}
	if h := Humanize(c.Err()); h != "server "+t.Name()+" sent a message larger than 64 KB; mcpdeck closed the connection" {
		t.Fatalf("Humanize = %q", h)
	}
}

// TestOversizedInitializeFailsOpen: a first answer over the limit fails
// Open with the limit named.
func TestOversizedInitializeFailsOpen(t *testing.T) {
	url := streamableServer(t, "initialize", false, 0)
	_, err := NewFactory().Open(t.Context(), "big", model.ServerConfig{Type: model.TransportHTTP, URL: url}, Options{MaxMessageSize: testLimit})
	if !errors.Is(err, ErrMessageTooLarge) || Classify(err) != ClassTooLarge || !strings.Contains(Humanize(err), "64 KB") {
		t.Fatalf("Open: %v (%v, %q)", err, Classify(err), Humanize(err))
	}
}
