package transports

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
)

// busyError is an error that knows its JSON-RPC form, as the engine's
// declined requests do.
type busyError struct{}

func (busyError) Error() string { return "busy: declined" }

func (r busyError) JSONRPCError() mcp.JSONRPCError {
	return mcp.JSONRPCError{JSONRPC: mcp.JSONRPC_VERSION, Error: mcp.JSONRPCErrorDetails{Code: -32000, Message: r.Error()}}
}

// TestHandlerErrorKeepsItsJSONRPCCode: a handler of the server's requests
// that fails with an error knowing its JSON-RPC form (even wrapped) answers
// the server with that code and message, on every transport that carries
// server requests; any other error is still -32603 with its text. Over
// stdio the fault server tallies what reached it.
func TestHandlerErrorKeepsItsJSONRPCCode(t *testing.T) {
	refuse := func(_ context.Context, r mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
		if strings.Contains(r.Params.Message, "plain") {
			return nil, errors.New("plain failure")
		}
		return nil, errors.Join(errors.New("wrapped"), busyError{})
	}
	t.Run("stdio", func(t *testing.T) {
		c := open(t, stdioCfg("-elicit-flood", "3"), Options{Elicit: refuse})
		got := mustCall(t, c, "flood_answers", map[string]any{"want": 3})
		if want := `"errors":{"-32000 busy: declined":3}`; !strings.Contains(got, want) {
			t.Fatalf("the server tallied %s, want %s", got, want)
		}
	})
	for _, tc := range []struct {
		name string
		cfg  func(t *testing.T) model.ServerConfig
	}{
		{"http", func(t *testing.T) model.ServerConfig {
			url, _ := startNet(t, "-http")
			return model.ServerConfig{Type: model.TransportHTTP, URL: url}
		}},
		{"ws", func(t *testing.T) model.ServerConfig {
			return model.ServerConfig{Type: model.TransportWS, URL: wsURL(t)}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got frames
			c := open(t, tc.cfg(t), Options{Elicit: refuse, OnFrame: got.on})
			for _, msg := range []string{"refused", "plain"} {
				if _, err := call(t.Context(), c, "elicit", map[string]any{"message": msg}); err == nil {
					t.Fatalf("the %s elicitation was answered", msg)
				}
			}
			var bodies []string
			for _, fr := range got.list() {
				if fr.Dir == Sent && fr.Kind == KindError && fr.Method == "elicitation/create" {
					bodies = append(bodies, fr.Body)
				}
			}
			if len(bodies) != 2 || !strings.Contains(bodies[0], `"code":-32000`) || !strings.Contains(bodies[0], `"message":"busy: declined"`) ||
				!strings.Contains(bodies[1], `"code":-32603`) || !strings.Contains(bodies[1], "plain failure") {
				t.Fatalf("answers sent: %q; want -32000 \"busy: declined\", then -32603 with the plain error", bodies)
			}
		})
	}
}
