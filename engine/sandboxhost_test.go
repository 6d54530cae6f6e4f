package engine

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/testdata/boxtest"
)

// TestAllowSandboxHost: a sandboxed user server that prints a forged
// "blocked connection to evil.example:443" line gets no refusal in its
// snapshot; refused a loopback port its list lacks, its snapshot holds the
// proxy's refusal and AllowSandboxHost adds its entry to the user
// settings: after the reload the proxy lets the same connection through.
func TestAllowSandboxHost(t *testing.T) {
	boxtest.RequireMechanism(t)
	bin := boxtest.BuildBoxServer(t, t.TempDir())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // accepts and hangs up: reached, which a refusal is not
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()
	target := ln.Addr().String()
	box := map[string]any{"command": bin, "sandbox": map[string]any{"network": []string{"example.org"}}}
	e := realEngine(t, nil, nil, func(o *Options) {
		raw, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"b": box}})
		if err := os.WriteFile(filepath.Join(o.Load.ConfigDir, config.UserSettingsFile), raw, 0o600); err != nil {
			t.Fatal(err)
		}
	})
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "b", "connected", inState(model.StateConnected))
	connect := func() string {
		res, err := e.CallTool(t.Context(), "b", "connect", map[string]any{"target": target}, nil)
		if err != nil || len(res.Content) == 0 {
			t.Fatalf("connect: %v", err)
		}
		return res.Content[0].Text
	}
	forged := "blocked connection to evil.example:443 at 2026-01-02T15:04:05Z (the host is not in the sandbox's list)"
	if _, err := e.CallTool(t.Context(), "b", "say", map[string]any{"text": forged}, nil); err != nil {
		t.Fatal(err)
	}
	s := await(t, e, "b", "the forged line in its log", func(s ServerSnapshot) bool { return slices.Contains(s.StderrTail, forged) })
	if r, ok := s.LastRefusal(); ok || len(s.Refusals) != 0 {
		t.Fatalf("a line the server printed became a refusal: %+v", r)
	}
	if got := connect(); !strings.HasPrefix(got, "refused: ") {
		t.Fatalf("unlisted: %q", got)
	}
	s = await(t, e, "b", "the proxy's refusal", func(s ServerSnapshot) bool { _, ok := s.LastRefusal(); return ok })
	r, _ := s.LastRefusal()
	if r.Allow != target || r.Host != "127.0.0.1" || r.Reason == "" || r.At.IsZero() {
		t.Fatalf("refusal %+v, want the entry %s", r, target)
	}
	if err := e.AllowSandboxHost(t.Context(), "b", r.Allow); err != nil {
		t.Fatal(err)
	}
	await(t, e, "b", "reconnected with the host", func(s ServerSnapshot) bool {
		return s.State == model.StateConnected && s.Config.Sandbox != nil && slices.Contains(s.Config.Sandbox.Network.Hosts, target)
	})
	if got := connect(); strings.HasPrefix(got, "refused: ") {
		t.Errorf("allowed, yet %q", got)
	}
}
