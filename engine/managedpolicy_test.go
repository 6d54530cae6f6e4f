package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/testdata/launchtest"
)

// TestManagedPolicyFollowsTheLoadedConfig: the policy the engine hands
// out for mcpdeck's own programs (the TUI's browser opener) is the managed
// policy of the configuration it loaded.
func TestManagedPolicyFollowsTheLoadedConfig(t *testing.T) {
	e := realEngine(t, map[string]any{}, nil, func(o *Options) {
		policy := `{"deniedMcpServers": [{"serverCommand": ["*"]}]}`
		if err := os.WriteFile(filepath.Join(o.Load.ManagedDir, config.ManagedSettingsFile), []byte(policy), 0o600); err != nil {
			t.Fatal(err)
		}
	})
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	prog, err := model.ResolveProgram(exe, nil, nil, "/", os.LookupEnv)
	if err != nil {
		t.Fatal(err)
	}
	if d := e.ManagedPolicy().Judge("", prog); d.Allowed || d.Rule != `deniedMcpServers: serverCommand ["*"]` {
		t.Fatalf("judged %+v", d)
	}
}

// policyAuth records the managed policy each Headers call was given.
type policyAuth struct {
	fakeAuth
	seen []model.Policy
}

func (a *policyAuth) Headers(_ context.Context, srv model.Server) (map[string]string, error) {
	a.seen = append(a.seen, srv.ManagedPolicy)
	return nil, nil
}

// TestHeadersHelperFollowsThePolicyOfEachReload: a live connection's
// headersHelper runs under the managed policy in force when it runs, so a
// deny added by a reload (which keeps a remote server allowed by its URL
// connected) stops it at the next request, not at the next connect.
func TestHeadersHelperFollowsThePolicyOfEachReload(t *testing.T) {
	auth := &policyAuth{}
	e := newEngine(Options{Auth: auth})
	def := map[string]any{"type": "http", "url": "https://mcp.example.com/mcp", "headersHelper": "echo '{}'"}
	before := launchtest.Server(t, "", "r", def)
	after := launchtest.Server(t, launchtest.DenyAll, "r", def)
	if after.Hash != before.Hash || !after.Policy.Allowed {
		t.Fatalf("the policy changed the definition: %s %s %+v", before.Hash, after.Hash, after.Policy)
	}
	en := &entry{}
	configure(en, before, nil, nil)
	o := e.run.connOptions(before, en.mask, &en.policy)
	if _, err := o.HeaderFunc(t.Context()); err != nil {
		t.Fatal(err)
	}
	configure(en, after, nil, nil) // what a reload does for an unchanged definition
	if _, err := o.HeaderFunc(t.Context()); err != nil {
		t.Fatal(err)
	}
	sh, err := model.ResolveProgram("/bin/sh", nil, nil, "/", os.LookupEnv)
	if err != nil {
		t.Skip("no /bin/sh")
	}
	var allowed []bool
	for _, p := range auth.seen {
		allowed = append(allowed, p.Judge("r", sh).Allowed)
	}
	if len(allowed) != 2 || !allowed[0] || allowed[1] {
		t.Fatalf("the helper's shell allowed by the policies seen: %v, want [true false]", allowed)
	}
}
