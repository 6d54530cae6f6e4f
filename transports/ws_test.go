package transports

import (
	"context"
	"encoding/json"
	"errors"
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

func wsURL(t *testing.T, args ...string) string {
	t.Helper()
	url, _ := startNet(t, "-ws", args...)
	return "ws" + strings.TrimPrefix(url, "http")
}

func TestWSExercise(t *testing.T) {
	rec := newRecorder()
	opts := fullOpts(rec)
	// keepalive runs throughout; a pong may take a while on a loaded machine
	opts.PingInterval = 100 * time.Millisecond
	c := open(t, model.ServerConfig{Type: model.TransportWS, URL: wsURL(t)}, opts)
	exercise(t, c, rec, true)
	select {
	case <-c.Done():
		t.Fatalf("connection lost: %v", c.Err())
	default:
	}
}

func TestWSServerCloseIsDetected(t *testing.T) {
	c := open(t, model.ServerConfig{Type: model.TransportWS, URL: wsURL(t)}, Options{})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if _, err := call(ctx, c, "drop", nil); err == nil || ctx.Err() != nil {
		t.Fatalf("call across a dropped websocket: %v", err)
	}
	<-c.Done()
	if Classify(c.Err()) != ClassTransient {
		t.Fatalf("Err = %v (%v)", c.Err(), Classify(c.Err()))
	}
}

func TestWSOldServer(t *testing.T) {
	start := time.Now()
	// This server ignores server/discover; the remembered version skips it.
	c := open(t, model.ServerConfig{Type: model.TransportWS, URL: wsURL(t, "-old-protocol", "2025-06-18")}, Options{ProtocolVersion: "2025-06-18"})
	if c.Init().ProtocolVersion != "2025-06-18" || time.Since(start) > 3*time.Second {
		t.Fatalf("version %q after %s", c.Init().ProtocolVersion, time.Since(start))
	}
}

// TestWSHandshake checks the subprotocol, headers, and errors of the
// handshake against an in-test server.
func TestWSHandshake(t *testing.T) {
	got := make(chan http.Header, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer t" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		select {
		case got <- r.Header.Clone():
		default: // dialled again: a socket closed on the probe is retried with initialize
		}
		conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"mcp"}})
		if err != nil {
			return
		}
		_ = conn.Close(websocket.StatusPolicyViolation, "bye") // no MCP here
	}))
	t.Cleanup(srv.Close)
	url := "ws" + strings.TrimPrefix(srv.URL, "http")

	_, err := NewFactory().Open(t.Context(), "w", model.ServerConfig{Type: model.TransportWS, URL: url}, Options{})
	if Classify(err) != ClassAuth || !errors.Is(err, ErrAuthRequired) {
		t.Fatalf("no token: %v (%v)", err, Classify(err))
	}
	_, err = NewFactory().Open(t.Context(), "w", model.ServerConfig{
		Type: model.TransportWS, URL: url, Headers: map[string]string{"X-Static": "s"},
	}, Options{HeaderFunc: func(context.Context) (map[string]string, error) {
		return map[string]string{"Authorization": "Bearer t"}, nil
	}})
	if err == nil || Classify(err) != ClassTransient {
		t.Fatalf("server closed during initialize: %v (%v)", err, Classify(err))
	}
	h := <-got
	if h.Get("Sec-WebSocket-Protocol") != "mcp" || h.Get("X-Static") != "s" {
		t.Fatalf("handshake headers: %v", h)
	}
}

func TestWSRefused(t *testing.T) {
	_, err := NewFactory().Open(t.Context(), "w", model.ServerConfig{Type: model.TransportWS, URL: "ws://127.0.0.1:9/ws"}, Options{})
	if Classify(err) != ClassTerminal {
		t.Fatalf("%v (%v)", err, Classify(err))
	}
}

// TestWSPingTimeoutIsConnectionLost runs a server that completes the
// handshake and then stops reading, so pings go unanswered.
func TestWSPingTimeoutIsConnectionLost(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"mcp"}})
		if err != nil {
			return
		}
		defer conn.CloseNow()
		_, msg, err := conn.Read(r.Context()) // initialize
		if err != nil {
			return
		}
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(msg, &req)
		reply := `{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"mute","version":"1"}}}`
		if err := conn.Write(r.Context(), websocket.MessageText, []byte(reply)); err != nil {
			return
		}
		if _, _, err := conn.Read(r.Context()); err != nil { // notifications/initialized
			return
		}
		<-release // stop reading: pings are never answered
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	c := open(t, model.ServerConfig{Type: model.TransportWS, URL: "ws" + strings.TrimPrefix(srv.URL, "http")},
		Options{PingInterval: 50 * time.Millisecond, ProtocolVersion: "2025-11-25"}) // remembered: it answers only initialize
	select {
	case <-c.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("unanswered pings not detected")
	}
	if !errors.Is(c.Err(), ErrConnectionLost) || !strings.Contains(c.Err().Error(), "ping") {
		t.Fatalf("Err = %v", c.Err())
	}
}

// TestWSServerThatClosesOnTheProbeConnects: an older WebSocket server that
// closes the socket on server/discover, a method it does not know, is
// dialled once more with initialize and connects, as a stdio server that
// dies on the probe is started once more.
func TestWSServerThatClosesOnTheProbeConnects(t *testing.T) {
	var dials atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dials.Add(1)
		conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"mcp"}})
		if err != nil {
			return
		}
		defer conn.CloseNow()
		for {
			_, msg, err := conn.Read(r.Context())
			if err != nil {
				return
			}
			var req struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			_ = json.Unmarshal(msg, &req)
			var reply string
			switch req.Method {
			case "server/discover":
				_ = conn.Close(websocket.StatusInternalError, "unknown method server/discover")
				return
			case "initialize":
				reply = `{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"old","version":"1"}}`
			case "ping":
				reply = `{}`
			default:
				continue // notifications
			}
			if err := conn.Write(r.Context(), websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":`+reply+`}`)); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	c := open(t, model.ServerConfig{Type: model.TransportWS, URL: "ws" + strings.TrimPrefix(srv.URL, "http")}, Options{})
	if got := c.Init().ProtocolVersion; got != mcp.ProtocolVersion20251125 {
		t.Fatalf("negotiated %q", got)
	}
	if err := c.Ping(t.Context()); err != nil {
		t.Fatalf("ping: %v", err)
	}
	if n := dials.Load(); n != 2 {
		t.Fatalf("dialled %d times, want 2 (the probe, then initialize)", n)
	}
}
