//go:build unix

package engine

import (
	"context"
	"encoding/json"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestHistoryOfAKilledServerSaysTheSignal: a stdio server killed with
// SIGKILL moves from connected to pending, and that move in its history
// says the process was killed by SIGKILL, not only "connected → pending".
func TestHistoryOfAKilledServerSaysTheSignal(t *testing.T) {
	bin := needFaultServer(t)
	e := realEngine(t, map[string]any{"fk": map[string]any{"command": bin}}, nil, nil)
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "fk", "connected", inState(model.StateConnected))
	res, err := e.CallTool(context.Background(), "fk", "pids", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var pids struct{ PID int }
	if err := json.Unmarshal([]byte(res.Content[0].Text), &pids); err != nil || pids.PID == 0 {
		t.Fatalf("pids: %v %q", err, res.Content[0].Text)
	}
	if err := syscall.Kill(pids.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	s := await(t, e, "fk", "the loss in its history", func(s ServerSnapshot) bool {
		for _, h := range s.History {
			if h.From == model.StateConnected && h.To != model.StateConnected {
				return true
			}
		}
		return false
	})
	for _, h := range s.History {
		if h.From == model.StateConnected {
			if !strings.Contains(h.Cause.Error, "killed by signal SIGKILL") {
				t.Errorf("the move from connected does not say the signal: %+v", h)
			}
		}
	}
}
