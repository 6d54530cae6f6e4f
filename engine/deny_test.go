package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestSetToolDenied: denying one tool marks it in the snapshot and refuses
// its calls at once; allowing it again lifts both.
func TestSetToolDenied(t *testing.T) {
	bin := needFaultServer(t)
	e := realEngine(t, map[string]any{"f": map[string]any{"command": bin}}, nil, nil)
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "f", "connected", inState(model.StateConnected))
	denied := func(want bool) func(ServerSnapshot) bool {
		return func(s ServerSnapshot) bool {
			for _, tl := range s.Tools {
				if tl.Name == "echo" {
					return tl.Denied == want
				}
			}
			return false
		}
	}
	if err := e.SetToolDenied(t.Context(), "f", "echo", true); err != nil {
		t.Fatal(err)
	}
	await(t, e, "f", "echo denied", denied(true))
	if _, err := e.CallTool(t.Context(), "f", "echo", map[string]any{"text": "x"}, nil); !errors.Is(err, ErrDenied) {
		t.Fatalf("denied tool called: %v", err)
	}
	if err := e.SetToolDenied(t.Context(), "f", "echo", false); err != nil {
		t.Fatal(err)
	}
	await(t, e, "f", "echo allowed", denied(false))
	if _, err := e.CallTool(t.Context(), "f", "echo", map[string]any{"text": "x"}, nil); err != nil {
		t.Fatalf("allowed tool refused: %v", err)
	}
}
