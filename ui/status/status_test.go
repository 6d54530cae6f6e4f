package status

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

func texts(ls []Line) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.Text
	}
	return out
}

// TestFailureWordsEveryReason: the failure sentence of each reason kind,
// built from the engine's structured reason (the cause alone in Error).
func TestFailureWordsEveryReason(t *testing.T) {
	code := 3
	for _, tc := range []struct {
		r    model.Reason
		want string
	}{
		{model.Reason{Kind: model.ReasonGaveUp, MaxAttempts: 5, Error: "connection refused"}, "Gave up after 5 reconnect attempts: connection refused"},
		{model.Reason{Kind: model.ReasonCrashLoop, Count: 5, Window: 10 * time.Second, Error: "exited"}, "Crash loop: the server stopped within 10s of connecting 5 times in a row; not restarting (last: exited)"},
		{model.Reason{Kind: model.ReasonRetryCancelled}, "Reconnect cancelled."},
		{model.Reason{Kind: model.ReasonTimedOut, Limit: 30 * time.Second, Error: "no answer"}, "the server did not finish connecting within 30s (raise MCP_TIMEOUT, in ms, for slow servers)"},
		{model.Reason{Kind: model.ReasonAuthNeeded, Cached: true}, "The server needs you to sign in."},
		{model.Reason{Kind: model.ReasonAuthNeeded, Error: "the server needs you to log in (HTTP 401)"}, "the server needs you to log in (HTTP 401)"},
		{model.Reason{Kind: model.ReasonCrashed, ExitCode: &code, Error: "the server process exited with code 3: Error: API_KEY is required"}, "the server process exited with code 3: Error: API_KEY is required"},
		{model.Reason{Kind: model.ReasonTooLarge, Error: "server s sent a message larger than 32 MB"}, "server s sent a message larger than 32 MB"},
		{model.Reason{Kind: model.ReasonFailed, Error: "boom"}, "boom"},
	} {
		s := engine.ServerSnapshot{State: model.StateFailed, Reason: tc.r, Error: tc.r.Error}
		if got := Failure(&s); got != tc.want {
			t.Errorf("%s: Failure = %q, want %q", tc.r.Kind, got, tc.want)
		}
	}
}

// TestWhySaysEachFactOnce: blockers first, then the state; a failed start
// of a command that is not found, or a config problem, is said once.
func TestWhySaysEachFactOnce(t *testing.T) {
	notFound := engine.ServerSnapshot{
		State:    model.StateFailed,
		Reason:   model.Reason{Kind: model.ReasonFailed, Error: `command "nodee" not found on PATH`},
		Blockers: []model.Reason{{Kind: model.ReasonCommandNotFound, Command: "nodee"}},
	}
	if got := texts(Why(&notFound)); !slices.Equal(got, []string{"Command nodee not found on PATH."}) {
		t.Errorf("command not found: %q", got)
	}
	p := model.Problem{File: ".mcp.json", Line: 6, Col: 104, Message: "unexpected ','"}
	broken := engine.ServerSnapshot{
		State: model.StateFailed, Reason: model.Reason{Kind: model.ReasonConfigProblem, Problem: &p}, Error: p.Error(),
		Blockers: []model.Reason{{Kind: model.ReasonConfigProblem, Problem: &p}},
	}
	if got := texts(Why(&broken)); !slices.Equal(got, []string{"Unexpected ',' (.mcp.json:6:104)."}) {
		t.Errorf("config problem: %q", got)
	}
	changed := engine.ServerSnapshot{
		State: model.StatePending, Reason: model.Reason{Kind: model.ReasonAwaitingApproval, Changed: true},
		Approval: model.Approval{Status: model.ApprovalChanged, Diff: "- a\n+ b"},
		Blockers: []model.Reason{{Kind: model.ReasonBlockedByPolicy, Rule: "r"}, {Kind: model.ReasonDisabledByYou}, {Kind: model.ReasonAwaitingApproval, Changed: true}},
	}
	lines := Why(&changed)
	if got := texts(lines); !slices.Equal(got, []string{"Blocked by policy rule r.", "Disabled by you (enable it to connect).", "Awaiting your approval again (the definition changed since you approved it)."}) || lines[2].Diff != "- a\n+ b" {
		t.Errorf("blockers in order with the diff: %+v", lines)
	}
	if got := Why(&engine.ServerSnapshot{State: model.StateConnected, Blockers: changed.Blockers}); got != nil {
		t.Errorf("a connected server explains itself: %v", got)
	}
}

// TestCountsAgree: resources and templates are counted apart, the same
// way wherever counts are shown.
func TestCountsAgree(t *testing.T) {
	s := engine.ServerSnapshot{Tools: make([]engine.Tool, 16), Resources: make([]engine.Resource, 7), Templates: make([]engine.ResourceTemplate, 2), Prompts: make([]engine.Prompt, 1)}
	if got := Counts(&s); got != "16 tools · 7 resources · 2 templates · 1 prompt" {
		t.Errorf("Counts = %q", got)
	}
	s.Templates = nil
	if got := Counts(&s); strings.Contains(got, "template") {
		t.Errorf("no templates, yet %q", got)
	}
}

// TestRowHintsComeFromTheKeys: the list row's key hints are whatever keys
// the TUI passes; the CLI passes none.
func TestRowHintsComeFromTheKeys(t *testing.T) {
	s := engine.ServerSnapshot{State: model.StatePending, Reason: model.Reason{Kind: model.ReasonAwaitingApproval}, Approval: model.Approval{Status: model.ApprovalPending}}
	if got, _ := Row(&s, time.Time{}, Hints{Approve: "Y", Reject: "n"}); got != "awaiting approval · Y approve · n reject" {
		t.Errorf("row with keys: %q", got)
	}
	if got, _ := Row(&s, time.Time{}, Hints{}); got != "awaiting approval" {
		t.Errorf("row without keys: %q", got)
	}
	retry := engine.ServerSnapshot{State: model.StatePending, Reason: model.Reason{Kind: model.ReasonRetryScheduled, Attempt: 2, MaxAttempts: 5, At: time.Unix(107, 0)}}
	if got, tone := Row(&retry, time.Unix(100, 0), Hints{Retry: "r", Stop: "s"}); got != "attempt 2/5 · retry in 7s · r retry now · s stop" || tone != ToneWarn {
		t.Errorf("retry row: %q %v", got, tone)
	}
}

// TestWhySaysTheCrashOnce: a crash that is the failure is said in the
// failure, not again as "Last crash"; during a backoff wait the why says
// what failed and when the next attempt runs, not "Still connecting.".
func TestWhySaysTheCrashOnce(t *testing.T) {
	code := 3
	crash := "the server process exited with code 3: crashing with code 3"
	loop := engine.ServerSnapshot{
		State: model.StateFailed, ExitCode: &code, Error: crash,
		Reason: model.Reason{Kind: model.ReasonCrashLoop, Count: 3, Window: 10 * time.Second, Error: crash},
	}
	want := []string{"Crash loop: the server stopped within 10s of connecting 3 times in a row; not restarting (last: " + crash + ")."}
	if got := texts(Why(&loop)); !slices.Equal(got, want) {
		t.Errorf("crash loop:\n got %q\nwant %q", got, want)
	}
	at := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
	waiting := engine.ServerSnapshot{
		State: model.StatePending, ExitCode: &code, Error: crash,
		Reason:  model.Reason{Kind: model.ReasonRetryScheduled, Attempt: 1, MaxAttempts: 5, At: at.Add(16 * time.Second), Error: crash},
		History: []engine.Transition{{From: model.StateConnected, To: model.StatePending, At: at}},
	}
	want = []string{"The connection was lost at 15:04:05: " + crash + ".", "Next attempt 1/5 at 15:04:21."}
	if got := texts(Why(&waiting)); !slices.Equal(got, want) {
		t.Errorf("lost, waiting:\n got %q\nwant %q", got, want)
	}
	waiting.ExitCode, waiting.Reason.Attempt, waiting.Reason.Error = nil, 4, "connection refused at 127.0.0.1:9: is the server running?"
	want = []string{"Reconnect attempt 3/5 failed at 15:04:05: connection refused at 127.0.0.1:9: is the server running?", "Next attempt 4/5 at 15:04:21."}
	if got := texts(Why(&waiting)); !slices.Equal(got, want) {
		t.Errorf("attempt failed, waiting:\n got %q\nwant %q", got, want)
	}
	waiting.Reason = model.Reason{Kind: model.ReasonConnecting, Attempt: 4, MaxAttempts: 5}
	waiting.Error = "connection refused at 127.0.0.1:9: is the server running?"
	want = []string{"Reconnect attempt 3/5 failed at 15:04:05: connection refused at 127.0.0.1:9: is the server running?", "Reconnecting now (attempt 4/5)."}
	if got := texts(Why(&waiting)); !slices.Equal(got, want) {
		t.Errorf("retrying now:\n got %q\nwant %q", got, want)
	}
	first := engine.ServerSnapshot{State: model.StatePending, Reason: model.Reason{Kind: model.ReasonConnecting}}
	if got := texts(Why(&first)); !slices.Equal(got, []string{"Still connecting."}) {
		t.Errorf("first connect: %q", got)
	}
	auth := engine.ServerSnapshot{State: model.StateNeedsAuth, Error: "e", Reason: model.Reason{
		Kind: model.ReasonAuthNeeded, Error: "the server refused the request (HTTP 403): your sign-in lacks a permission it needs; sign in again to grant it",
	}}
	want = []string{"Needs authentication: run authenticate for this server.", "The server refused the request (HTTP 403): your sign-in lacks a permission it needs; sign in again to grant it."}
	if got := texts(Why(&auth)); !slices.Equal(got, want) {
		t.Errorf("needs auth:\n got %q\nwant %q", got, want)
	}
}
