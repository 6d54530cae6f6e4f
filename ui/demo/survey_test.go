package demo

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

type answer struct{}

func (answer) Elicit(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
		Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"name": "Ada", "rating": "fine"},
	}}, nil
}

// TestSurveyOnEveryProtocol: the feedback form reaches the person on a
// 2026-07-28 session (input_required, answered on the retry) and on an
// older one (elicitation/create).
func TestSurveyOnEveryProtocol(t *testing.T) {
	for _, v := range []string{mcp.ProtocolVersion20260728, mcp.ProtocolVersion20251125} {
		t.Run(v, func(t *testing.T) {
			c, err := client.NewInProcessClientWithOptions(Survey(), client.WithElicitationHandler(answer{}))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = c.Close() })
			if err := c.Start(t.Context()); err != nil {
				t.Fatal(err)
			}
			init := mcp.InitializeRequest{}
			init.Params.ProtocolVersion = v
			init.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
			res, err := c.Initialize(t.Context(), init)
			if err != nil || res.ProtocolVersion != v {
				t.Fatalf("initialize: %v, %+v", err, res)
			}
			if got := call(t, c, "feedback", nil); !strings.Contains(got, `Thanks, Ada! You rated the demo "fine"`) {
				t.Fatalf("feedback = %q", got)
			}
		})
	}
}
