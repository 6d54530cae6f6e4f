package engine

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

func TestPublisherCoalescesAndNeverBlocks(t *testing.T) {
	p := newPublisher()
	for i := 1; i <= 1000; i++ {
		p.publish(Snapshot{Seq: uint64(i)})
	}
	if got := <-p.ch; got.Seq != 1000 {
		t.Fatalf("slow reader got seq %d, want the latest 1000", got.Seq)
	}
	select {
	case s := <-p.ch:
		t.Fatalf("unexpected extra snapshot %d", s.Seq)
	default:
	}
	p.publish(Snapshot{Seq: 1001})
	p.close()
	p.publish(Snapshot{Seq: 1002}) // after close: dropped, no panic
	if got := <-p.ch; got.Seq != 1001 {
		t.Fatalf("got %d, want 1001", got.Seq)
	}
	if _, ok := <-p.ch; ok {
		t.Fatal("channel not closed")
	}
}

func TestElicitPolicy(t *testing.T) {
	ctx := context.Background()
	schema := json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","default":"Ada"},"n":{"type":"integer","default":3},"x":{"type":"string"}},"required":["name"]}`)
	acc, err := ElicitPolicy("accept-defaults")
	if err != nil {
		t.Fatal(err)
	}
	r, _ := acc(ctx, ElicitRequest{Server: "s", Mode: "form", Schema: schema})
	if r.Action != ElicitAccept || r.Content["name"] != "Ada" || r.Content["n"] != float64(3) || len(r.Content) != 2 {
		t.Errorf("accept-defaults = %+v", r)
	}
	r, _ = acc(ctx, ElicitRequest{Server: "s", Mode: "form", Schema: json.RawMessage(`{"properties":{"email":{"type":"string"}},"required":["email"]}`)})
	if r.Action != ElicitDecline || !strings.Contains(r.Reason, "email") {
		t.Errorf("required without default = %+v, want decline naming email", r)
	}
	r, _ = acc(ctx, ElicitRequest{Server: "s", Mode: "url", URL: "https://x"})
	if r.Action != ElicitDecline || !strings.Contains(r.Reason, "TUI") {
		t.Errorf("url mode = %+v", r)
	}
	for mode, want := range map[string]string{"decline": ElicitDecline, "cancel": ElicitCancel} {
		f, err := ElicitPolicy(mode)
		if err != nil {
			t.Fatal(err)
		}
		if r, _ := f(ctx, ElicitRequest{}); r.Action != want {
			t.Errorf("%s = %s", mode, r.Action)
		}
	}
	if _, err := ElicitPolicy("yes"); err == nil {
		t.Error("unknown mode accepted")
	}
}

func TestBlockers(t *testing.T) {
	srv := stdioServer("s")
	srv.Enabled = false
	srv.Policy = model.PolicyDecision{Allowed: false, Rule: "deniedMcpServers[0]"}
	srv.Approval = model.Approval{Status: model.ApprovalChanged, Diff: "- a\n+ b"}
	srv.Problems = []model.Problem{{Server: "s", Field: "env.K", Message: "${TOKEN} is not set"}}
	srv.Config.Command = "no-such-cmd"
	bs := blockers(srv, func(model.ServerConfig) error { return errors.New("nope") })
	want := []model.ReasonKind{model.ReasonBlockedByPolicy, model.ReasonDisabledByYou, model.ReasonAwaitingApproval, model.ReasonConfigProblem, model.ReasonCommandNotFound}
	if len(bs) != len(want) {
		t.Fatalf("blockers %+v", bs)
	}
	for i, b := range bs {
		if b.Kind != want[i] {
			t.Errorf("blocker %d = %s, want %s", i, b.Kind, want[i])
		}
	}
	if bs[0].Rule != "deniedMcpServers[0]" || !bs[2].Changed || bs[3].Problem.Message != "${TOKEN} is not set" || bs[4].Command != "no-such-cmd" || bs[4].Missing {
		t.Errorf("blocker facts %+v", bs)
	}
}

// TestBlockersFindTheProgramAsTheLauncherWill checks that "command not
// found" comes from the one resolver: the server's own env.PATH when it
// sets one (no fallback to mcpdeck's), relative entries ignored, a path
// relative to the server's cwd.
func TestBlockersFindTheProgramAsTheLauncherWill(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses Unix execute bits")
	}
	cwd := t.TempDir()
	tree := filepath.Join(cwd, "bin")
	if err := os.MkdirAll(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tree, "tool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	find := programFinder(cwd, os.LookupEnv)
	for _, tc := range []struct {
		cmd      string
		env      map[string]string
		notFound bool
	}{
		{cmd: "sh"},
		{cmd: "sh", env: map[string]string{"PATH": "/nonexistent"}, notFound: true},
		{cmd: "tool", env: map[string]string{"PATH": "bin"}, notFound: true},
		{cmd: "./bin/tool"},
		{cmd: "./bin/none", notFound: true},
	} {
		srv := stdioServer("s")
		srv.Config.Command, srv.Config.Env = tc.cmd, tc.env
		bs := blockers(srv, find)
		if got := len(bs) == 1 && bs[0].Kind == model.ReasonCommandNotFound; got != tc.notFound {
			t.Errorf("%s with env %v: blockers %+v, want not found = %v", tc.cmd, tc.env, bs, tc.notFound)
		}
	}
}

func TestSettingsFromEnv(t *testing.T) {
	env := map[string]string{
		"MCP_SERVER_CONNECTION_BATCH_SIZE": "7", "MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE": "50",
		"MCP_TIMEOUT": "1500", "MCP_TOOL_TIMEOUT": "nonsense",
	}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	s := readSettings(lookup)
	if s.localBatch != 7 || s.remoteBatch != 50 || s.connectTimeout != 1500*time.Millisecond || s.toolTimeout != 100000000*time.Millisecond {
		t.Errorf("settings %+v", s)
	}
	env["MCP_TOOL_TIMEOUT"], env["MCP_TIMEOUT"], env["MCP_SERVER_CONNECTION_BATCH_SIZE"] = "2500", "-5", "0"
	if s := readSettings(lookup); s.toolTimeout != 2500*time.Millisecond || s.connectTimeout != 30*time.Second || s.localBatch != 0 {
		t.Errorf("tool timeout / bad values: %+v", s)
	}
	d := readSettings(func(string) (string, bool) { return "", false })
	if d.localBatch != 0 /* the adaptive gate, localgate.go */ || d.remoteBatch != 20 || d.connectTimeout != 30*time.Second {
		t.Errorf("defaults %+v", d)
	}
}
