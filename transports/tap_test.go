package transports

import (
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// frames collects what Options.OnFrame receives.
type frames struct {
	mu  sync.Mutex
	all []Frame
}

func (f *frames) on(fr Frame) {
	f.mu.Lock()
	f.all = append(f.all, fr)
	f.mu.Unlock()
}

func (f *frames) list() []Frame {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Frame(nil), f.all...)
}

// find returns the first frame matching dir, kind and method.
func (f *frames) find(dir Direction, kind FrameKind, method string) (Frame, bool) {
	for _, fr := range f.list() {
		if fr.Dir == dir && fr.Kind == kind && fr.Method == method {
			return fr, true
		}
	}
	return Frame{}, false
}

// TestTapRecordsEveryTransport: over stdio, streamable HTTP, legacy SSE,
// WebSocket and in process, every message of a session becomes a frame:
// a tool call and its response (same id, with a duration), notifications
// from the server, the server's own requests and mcpdeck's answers. The
// server's secret (an env or header value) never appears in a body, even
// when the server echoes it, and a message over 64 KB is kept cut.
func TestTapRecordsEveryTransport(t *testing.T) {
	const secret = "sk-planted-7f3a9c41e2"
	big := strings.Repeat("x", MaxFrameBody+1000)
	for _, tc := range []struct {
		name      string
		cfg       func(t *testing.T) model.ServerConfig
		note      string // a notification the exercise makes the server send
		serverReq bool   // the server can send requests on this transport
	}{
		{"stdio", func(*testing.T) model.ServerConfig {
			c := stdioCfg()
			c.Env = map[string]string{"API_KEY": secret}
			return c
		}, "notifications/progress", true},
		{"http", func(t *testing.T) model.ServerConfig {
			url, _ := startNet(t, "-http")
			return model.ServerConfig{Type: model.TransportHTTP, URL: url, Headers: map[string]string{"X-Api-Key": secret}}
		}, "notifications/progress", true},
		{"sse", func(t *testing.T) model.ServerConfig {
			url, _ := startNet(t, "-sse")
			return model.ServerConfig{Type: model.TransportSSE, URL: url, Headers: map[string]string{"X-Api-Key": secret}}
		}, "notifications/progress", false},
		{"ws", func(t *testing.T) model.ServerConfig {
			return model.ServerConfig{Type: model.TransportWS, URL: wsURL(t), Headers: map[string]string{"X-Api-Key": secret}}
		}, "notifications/progress", true},
		{"sdk", func(*testing.T) model.ServerConfig {
			return model.ServerConfig{Type: model.TransportSDK, Name: "demo", Env: map[string]string{"API_KEY": secret}}
		}, "notifications/message", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got frames
			rec := newRecorder()
			opts := fullOpts(rec)
			cfg := tc.cfg(t)
			opts.OnFrame = got.on
			opts.Mask = textsafe.NewMasker(model.Server{Config: cfg}.Secrets()...)
			opts.Builtins = map[string]func() *server.MCPServer{"demo": builtin}
			c := open(t, cfg, opts)
			if echoed := mustCall(t, c, "echo", map[string]any{"text": "key " + secret}); !strings.Contains(echoed, secret) {
				t.Fatalf("echo = %q", echoed)
			}
			mustCall(t, c, "echo", map[string]any{"text": big})
			if tc.name == "sdk" {
				mustCall(t, c, "ping_list", nil)
				mustCall(t, c, "ask", nil)
			} else {
				req := mcp.CallToolRequest{}
				req.Params.Name, req.Params.Arguments = "progress", map[string]any{"steps": 2}
				req.Params.Meta = &mcp.Meta{ProgressToken: "tok-1"}
				if _, err := c.Client().CallTool(t.Context(), req); err != nil {
					t.Fatal(err)
				}
				if tc.serverReq {
					mustCall(t, c, "elicit", nil)
				}
			}
			rec.waitNote(t, tc.note)

			call, ok := got.find(Sent, KindRequest, "tools/call")
			if !ok || call.ID == "" || !strings.Contains(call.Body, `"key ****"`) {
				t.Fatalf("no tools/call request with an id and the secret masked: %+v", call)
			}
			var answered bool
			for _, fr := range got.list() {
				if fr.Dir == Received && fr.Kind == KindResponse && fr.Method == "tools/call" && fr.ID == call.ID {
					// Windows' monotonic clock moves in timer ticks
					// (0.5 to 15.6 ms): an answer given in-process
					// can take no time there.
					timed := fr.Duration > 0 || runtime.GOOS == "windows" && tc.name == "sdk"
					answered = timed && fr.Masked > 0 && strings.Contains(fr.Body, `"result"`)
				}
			}
			if !answered {
				t.Errorf("the call's response (id %s) is missing, has no duration, or its secret was not masked", call.ID)
			}
			if _, ok := got.find(Received, KindNotification, tc.note); !ok {
				t.Errorf("no received %s frame", tc.note)
			}
			if tc.serverReq {
				if _, ok := got.find(Received, KindRequest, "elicitation/create"); !ok {
					t.Error("the server's elicitation request is not recorded")
				}
				if a, ok := got.find(Sent, KindResponse, "elicitation/create"); !ok || !strings.Contains(a.Body, "Grace") {
					t.Errorf("mcpdeck's answer to the elicitation is not recorded: %+v", a)
				}
			}
			var cut bool
			for _, fr := range got.list() {
				if strings.Contains(fr.Body, secret) {
					t.Errorf("frame %s %s %s shows the secret: %s", fr.Dir, fr.Kind, fr.Method, fr.Body)
				}
				if len(fr.Body) > MaxFrameBody {
					t.Errorf("frame body of %d bytes", len(fr.Body))
				}
				if fr.Cut && fr.Size > len(big) && len(fr.Body) == MaxFrameBody {
					cut = true
				}
			}
			if !cut {
				t.Error("the 65 KB messages were not kept cut to 64 KB")
			}
		})
	}
}
