package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/transports"
)

// askingServer is a loopback 2026-07-28 server whose tools answer "input
// required". It records the JSON-RPC id of every tools/call it receives and
// any request state that came back belonging to another call.
type askingServer struct {
	http *httptest.Server

	mu     sync.Mutex
	ids    map[string][]string // tool → JSON-RPC ids, in order
	mixups []string
}

func newAskingServer(t *testing.T) *askingServer {
	t.Helper()
	a := &askingServer{ids: map[string][]string{}}
	s := server.NewMCPServer("asking", "1", server.WithToolCapabilities(false), server.WithPromptCapabilities(false))
	form := func(msg string) mcp.ElicitationParams {
		return mcp.ElicitationParams{Message: msg, RequestedSchema: map[string]any{
			"type": "object", "properties": map[string]any{"answer": map[string]any{"type": "string"}},
		}}
	}
	answer := func(req mcp.CallToolRequest, id string) (string, bool) {
		r := server.ElicitationResponse(req.Params.InputResponses, id)
		if r == nil || r.Action != mcp.ElicitationResponseActionAccept {
			return "", false
		}
		c, _ := r.Content.(map[string]any)
		s, _ := c["answer"].(string)
		return s, true
	}
	// twice asks two questions, one per round, and keeps what it learnt in
	// the request state (tagged with the caller's "who").
	s.AddTool(mcp.NewTool("twice", mcp.WithString("who", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			who := req.GetString("who", "")
			state := req.Params.RequestState
			if state != "" && !strings.HasPrefix(state, who+"|") {
				a.mu.Lock()
				a.mixups = append(a.mixups, fmt.Sprintf("call for %s got state %q", who, state))
				a.mu.Unlock()
			}
			switch {
			case state == "":
				return server.NewInputRequestBuilder(who+"|1").Elicit("q1", form(who+": first?")).ToolResult(), nil
			case state == who+"|1":
				a1, ok := answer(req, "q1")
				if !ok {
					return mcp.NewToolResultError("no first answer"), nil
				}
				return server.NewInputRequestBuilder(who+"|2|"+a1).Elicit("q2", form(who+": second?")).ToolResult(), nil
			case strings.HasPrefix(state, who+"|2|"):
				a2, ok := answer(req, "q2")
				if !ok {
					return mcp.NewToolResultError("no second answer"), nil
				}
				return mcp.NewToolResultText(strings.TrimPrefix(state, who+"|2|") + " / " + a2), nil
			}
			return mcp.NewToolResultError("unknown state " + state), nil
		})
	// forever never has enough.
	s.AddTool(mcp.NewTool("forever"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return server.NewInputRequestBuilder("more").Elicit("q", form("one more?")).ToolResult(), nil
	})
	// nag asks again whatever the answer.
	s.AddTool(mcp.NewTool("nag"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return server.NewInputRequestBuilder("").Elicit("q", form("share your email?")).ToolResult(), nil
	})
	// level answers the log level the request's _meta asks for.
	s.AddTool(mcp.NewTool("level"), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("level=" + string(req.Params.Meta.LogLevel())), nil
	})
	// summarize asks for a model's reply (sampling in the input-required round).
	s.AddTool(mcp.NewTool("summarize"), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r := server.SamplingResponse(req.Params.InputResponses, "llm")
		if r == nil {
			return server.NewInputRequestBuilder("").Sample("llm", mcp.CreateMessageParams{
				Messages:     []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("summarize: the cat sat")}},
				SystemPrompt: "be brief", MaxTokens: 50,
			}).ToolResult(), nil
		}
		t, _ := r.Content.(mcp.TextContent)
		if m, ok := r.Content.(map[string]any); ok {
			t.Text, _ = m["text"].(string)
		}
		return mcp.NewToolResultText(r.Model + " said " + t.Text), nil
	})
	// the prompt "greeting" asks for a name first.
	s.AddPrompt(mcp.NewPrompt("greeting"), func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		r := server.ElicitationResponse(req.Params.InputResponses, "name")
		if r == nil {
			return server.NewInputRequestBuilder("").Elicit("name", form("your name?")).PromptResult(), nil
		}
		c, _ := r.Content.(map[string]any)
		name, _ := c["answer"].(string)
		return mcp.NewGetPromptResult("greeting", []mcp.PromptMessage{
			mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("hello "+name)),
		}), nil
	})
	next := server.NewStreamableHTTPServer(s, server.WithStreamableHTTPProtocolVersions(mcp.ProtocolVersion20260728))
	a.http = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params struct {
					Name string `json:"name"`
				} `json:"params"`
			}
			if json.Unmarshal(body, &m) == nil && m.Method == string(mcp.MethodToolsCall) {
				a.mu.Lock()
				a.ids[m.Params.Name] = append(a.ids[m.Params.Name], string(m.ID))
				a.mu.Unlock()
			}
		}
		next.ServeHTTP(w, r)
	}))
	t.Cleanup(a.http.Close)
	return a
}

func (a *askingServer) calls(tool string) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.ids[tool]...)
}

// askingEngine connects an engine whose person answers with elicit.
func askingEngine(t *testing.T, a *askingServer, elicit ElicitFunc) *Engine {
	t.Helper()
	e := realEngine(t, map[string]any{"s": map[string]any{"type": "http", "url": a.http.URL}}, nil,
		func(o *Options) { o.Elicit = elicit })
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := await(t, e, "s", "connected", inState(model.StateConnected))
	if s.ProtocolVersion != mcp.ProtocolVersion20260728 {
		t.Fatalf("protocol %q, want 2026-07-28", s.ProtocolVersion)
	}
	return e
}

func accept(answer string) ElicitResponse {
	return ElicitResponse{Action: ElicitAccept, Content: map[string]any{"answer": answer}}
}

func text(r ToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// TestInputRequiredAskedTwiceThenAnswers: a tool that answers "input
// required" twice gets both answers through the elicitation prompt (which
// names the call), its request state back, and a new JSON-RPC id per round.
func TestInputRequiredAskedTwiceThenAnswers(t *testing.T) {
	a := newAskingServer(t)
	var mu sync.Mutex
	var asked []ElicitRequest
	e := askingEngine(t, a, func(_ context.Context, r ElicitRequest) (ElicitResponse, error) {
		mu.Lock()
		asked = append(asked, r)
		mu.Unlock()
		return accept("re:" + r.Message), nil
	})
	res, err := e.CallTool(t.Context(), "s", "twice", map[string]any{"who": "ada"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := text(res); got != "re:ada: first? / re:ada: second?" {
		t.Fatalf("result %q", got)
	}
	if len(asked) != 2 {
		t.Fatalf("asked %d times: %+v", len(asked), asked)
	}
	for _, r := range asked {
		if r.Server != "s" || r.Mode != "form" || r.Request != "tools/call twice" {
			t.Fatalf("request for input %+v: want server s, form mode, for tools/call twice", r)
		}
	}
	ids := a.calls("twice")
	if len(ids) != 3 || ids[0] == ids[1] || ids[1] == ids[2] || ids[0] == ids[2] {
		t.Fatalf("JSON-RPC ids of the three rounds: %v (want three different)", ids)
	}
}

// TestInputRequiredStopsAfterTenRounds: a server that never stops asking
// gets at most 10 requests, and the error names the server and the call.
func TestInputRequiredStopsAfterTenRounds(t *testing.T) {
	a := newAskingServer(t)
	e := askingEngine(t, a, func(context.Context, ElicitRequest) (ElicitResponse, error) { return accept("yes"), nil })
	_, err := e.CallTool(t.Context(), "s", "forever", nil, nil)
	if err == nil {
		t.Fatal("the call ended without error")
	}
	if n := len(a.calls("forever")); transports.MaxInputRounds != 10 || n != 10 {
		t.Fatalf("server got %d requests, want 10", n)
	}
	msg := err.Error()
	for _, want := range []string{"calling forever on s", "kept asking for more input", "after 10 rounds"} {
		if !strings.Contains(msg, want) {
			t.Fatalf("error %q lacks %q", msg, want)
		}
	}
}

// TestInputRequiredDeclineEndsCall: the server is told of a declined form
// once; when it asks again, the call ends saying so, and the person is not
// asked a second time.
func TestInputRequiredDeclineEndsCall(t *testing.T) {
	for _, action := range []string{ElicitDecline, ElicitCancel} {
		t.Run(action, func(t *testing.T) {
			a := newAskingServer(t)
			var mu sync.Mutex
			asked := 0
			e := askingEngine(t, a, func(context.Context, ElicitRequest) (ElicitResponse, error) {
				mu.Lock()
				asked++
				mu.Unlock()
				return ElicitResponse{Action: action}, nil
			})
			_, err := e.CallTool(t.Context(), "s", "nag", nil, nil)
			if !errors.Is(err, ErrInputDeclined) {
				t.Fatalf("error %v, want ErrInputDeclined", err)
			}
			want := "calling nag on s: you " + action + "d the server's request for input (share your email?), and it asked for input again"
			if !strings.Contains(err.Error(), want) {
				t.Fatalf("error %q lacks %q", err, want)
			}
			if asked != 1 || len(a.calls("nag")) != 2 {
				t.Fatalf("person asked %d times, server got %d requests; want 1 and 2", asked, len(a.calls("nag")))
			}
		})
	}
}

// TestInputRequiredConcurrentCallsKeepTheirState: two calls in flight on one
// server, both waiting for input at the same time, each get their own
// answers and request state back.
func TestInputRequiredConcurrentCallsKeepTheirState(t *testing.T) {
	a := newAskingServer(t)
	both := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex
	waiting := 0
	e := askingEngine(t, a, func(ctx context.Context, r ElicitRequest) (ElicitResponse, error) {
		if r.Request != "tools/call twice" {
			return ElicitResponse{}, fmt.Errorf("request for input not tied to its call: %+v", r)
		}
		mu.Lock()
		waiting++
		if waiting == 2 {
			once.Do(func() { close(both) })
		}
		mu.Unlock()
		select { // the first questions of both calls are open at once
		case <-both:
		case <-ctx.Done():
			return ElicitResponse{}, ctx.Err()
		}
		return accept("re:" + r.Message), nil
	})
	var wg sync.WaitGroup
	got := map[string]string{}
	for _, who := range []string{"ada", "bob"} {
		wg.Go(func() {
			res, err := e.CallTool(t.Context(), "s", "twice", map[string]any{"who": who}, nil)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				got[who] = err.Error()
				return
			}
			got[who] = text(res)
		})
	}
	wg.Wait()
	for _, who := range []string{"ada", "bob"} {
		if want := "re:" + who + ": first? / re:" + who + ": second?"; got[who] != want {
			t.Errorf("call for %s: %q, want %q", who, got[who], want)
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.mixups) > 0 {
		t.Errorf("states mixed: %v", a.mixups)
	}
	if len(a.ids["twice"]) != 6 {
		t.Errorf("server got %d requests, want 6", len(a.ids["twice"]))
	}
}

// TestInputRequiredOnPromptGet: prompts/get may ask for input too; the
// prompt names it.
func TestInputRequiredOnPromptGet(t *testing.T) {
	a := newAskingServer(t)
	var asked []string
	e := askingEngine(t, a, func(_ context.Context, r ElicitRequest) (ElicitResponse, error) {
		asked = append(asked, r.Request)
		return accept("ada"), nil
	})
	res, err := e.GetPrompt(t.Context(), "s", "greeting", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	if !strings.Contains(string(b), "hello ada") || len(asked) != 1 || asked[0] != "prompts/get greeting" {
		t.Fatalf("prompt %s, asked for %v", b, asked)
	}
}
