package transports

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
)

// TestSSERequestsAreTakenOutAndAnswered: a server request on the legacy
// SSE stream never reaches mcp-go (whose own request may have the same id)
// and is answered by a POST to the session's endpoint; every other event
// passes through byte for byte, whatever its line endings.
func TestSSERequestsAreTakenOutAndAnswered(t *testing.T) {
	posted := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		posted <- string(b)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	s := &sseRequests{ctx: t.Context(), answers: newAnswering(), client: srv.Client(), endpoint: func() string { return srv.URL + "/message?sessionId=1" }}
	asked := make(chan string, 1)
	s.SetRequestHandler(func(_ context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
		asked <- req.Method
		return transport.NewJSONRPCResultResponse(req.ID, json.RawMessage(`{"roots":[]}`)), nil
	})
	kept := "event: endpoint\ndata: /message?sessionId=1\n\n" +
		"event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\n\r\n" +
		": a comment\n\n" +
		"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n"
	request := "event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"roots/list\"}\r\n\r\n"
	var out strings.Builder
	if err := s.filter(strings.NewReader(request+kept+request), &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != kept {
		t.Fatalf("passed through:\n%q\nwant:\n%q", out.String(), kept)
	}
	for range 2 {
		if m := <-asked; m != "roots/list" {
			t.Fatalf("handler got %s", m)
		}
		var resp struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(<-posted), &resp); err != nil || resp.ID != 1 || string(resp.Result) != `{"roots":[]}` {
			t.Fatalf("posted answer: %+v, %v", resp, err)
		}
	}
}
