package transports

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
)

func builtin() *server.MCPServer {
	s := server.NewMCPServer("builtin", "1", server.WithToolCapabilities(true), server.WithElicitation(), server.WithRoots())
	s.AddTool(mcp.NewTool("ask"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := s.RequestElicitation(ctx, mcp.ElicitationRequest{Params: mcp.ElicitationParams{
			Message: "name?", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
		}})
		if err != nil {
			return nil, err
		}
		roots, err := s.RequestRoots(ctx, mcp.ListRootsRequest{})
		if err != nil {
			return nil, err
		}
		return mcp.NewToolResultText(res.Content.(map[string]any)["name"].(string) + " " + roots.Roots[0].URI), nil
	})
	s.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(r.GetString("text", "")), nil
	})
	s.AddTool(mcp.NewTool("ping_list"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_ = s.SendNotificationToClient(ctx, "notifications/message", map[string]any{"level": "info", "data": "hi"})
		return mcp.NewToolResultText("ok"), nil
	})
	return s
}

func TestSDKExercise(t *testing.T) {
	rec := newRecorder()
	opts := fullOpts(rec)
	opts.Builtins = map[string]func() *server.MCPServer{"demo": builtin}
	c := open(t, model.ServerConfig{Type: model.TransportSDK, Name: "demo"}, opts)
	if c.Init().ServerInfo.Name != "builtin" {
		t.Fatalf("init %+v", c.Init())
	}
	if got := mustCall(t, c, "ask", nil); got != "Grace file:///project" {
		t.Fatalf("ask = %q", got)
	}
	mustCall(t, c, "ping_list", nil)
	rec.waitNote(t, "notifications/message")
}

// TestSDKAnswerAfterTheDeadlineIsNone: a built-in that answers only once
// the request's context has ended (as a server held past the connect
// timeout does) gives the caller the context's error, not a late result.
func TestSDKAnswerAfterTheDeadlineIsNone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		late := func() *server.MCPServer {
			s := server.NewMCPServer("late", "1", server.WithToolCapabilities(true))
			s.AddTool(mcp.NewTool("slow"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				<-ctx.Done()
				return mcp.NewToolResultText("too late"), nil
			})
			return s
		}
		c := open(t, model.ServerConfig{Type: model.TransportSDK, Name: "late"}, Options{Builtins: map[string]func() *server.MCPServer{"late": late}})
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		res, err := call(ctx, c, "slow", nil)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("got %q, %v; want the deadline's error", res, err)
		}
		_ = c.Close(context.Background())
	})
}

func TestSDKUnknownBuiltin(t *testing.T) {
	_, err := NewFactory().Open(t.Context(), "x", model.ServerConfig{Type: model.TransportSDK, Name: "nope"}, Options{})
	if !errors.Is(err, ErrNoBuiltin) || Classify(err) != ClassTerminal {
		t.Fatalf("%v (%v)", err, Classify(err))
	}
}
