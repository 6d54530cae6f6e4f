package launch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/testdata/launchtest"
)

// ownCredentials puts mcpdeck's own credentials in the test's
// environment, as `MCPDECK_SERVE_TOKEN=... mcpdeck serve` does, and
// returns their values.
func ownCredentials(t *testing.T) []string {
	t.Helper()
	vals := map[string]string{
		"MCPDECK_SERVE_TOKEN":        "serve-token-0123456789abcdef",
		"MCPDECK_CLIENT_SECRET":      "client-secret-0123456789",
		"MCPDECK_CLIENT_PRIVATE_KEY": "-----BEGIN PRIVATE KEY----- test",
		"MCPDECK_IDP_ID_TOKEN":       "idp-id-token-0123456789",
		"MCPDECK_IDP_CLIENT_SECRET":  "idp-client-secret-0123456789",
	}
	var out []string
	for k, v := range vals {
		t.Setenv(k, v)
		out = append(out, v)
	}
	return out
}

// TestNoChildInheritsOwnCredentials: a server's program (Start), a
// helper run for its output (Run) and a headersHelper command line
// (RunShell) each see the person's environment but none of mcpdeck's
// own credentials; the definition's env still reaches them.
func TestNoChildInheritsOwnCredentials(t *testing.T) {
	secrets := ownCredentials(t)
	t.Setenv("PERSON_VAR", "kept")
	dir := t.TempDir()
	dump := filepath.Join(dir, "env-start")
	script := launchtest.Script(t, filepath.Join(dir, "server"), "env > "+textsafe.QuoteArg(dump))
	ctx := context.Background()
	lim := platform.Limits{Timeout: time.Minute, MaxOutput: 1 << 20}
	def := map[string]string{"DEF_VAR": "given"}

	g, err := (Launcher{Server: "s"}).Start(Spec{Command: script, Env: def}, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	started, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	run, err := (Launcher{Server: "s"}).Run(ctx, Spec{Command: "env", Env: def}, nil, lim)
	if err != nil {
		t.Fatal(err)
	}
	shell, err := (Launcher{Server: "s"}).RunShell(ctx, "env", def, "", nil, lim)
	if err != nil {
		t.Fatal(err)
	}
	for what, env := range map[string]string{"server": string(started), "helper": string(run), "headersHelper": string(shell)} {
		for _, s := range secrets {
			if strings.Contains(env, s) {
				t.Errorf("%s inherited one of mcpdeck's credentials (%.12s...)", what, s)
			}
		}
		if !strings.Contains(env, "PERSON_VAR=kept") || !strings.Contains(env, "DEF_VAR=given") {
			t.Errorf("%s lost the person's or the definition's environment:\n%s", what, env)
		}
	}
}

// TestSandboxedServerEnvIsAnAllowList: with real bubblewrap, a sandboxed
// server sees PATH, HOME, its private TMPDIR and its definition's env,
// and neither mcpdeck's credentials nor the person's other variables.
func TestSandboxedServerEnvIsAnAllowList(t *testing.T) {
	w := newBoxWorld(t)
	ownCredentials(t)
	t.Setenv("AWS_SECRET_ACCESS_KEY", "aws-secret-0123456789")
	b := startBoxEnv(t, w.bin, w.project, model.DefaultSandbox(), map[string]string{"API_KEY": "given"})
	names := strings.Fields(b.tool("environ", nil))
	for _, n := range names {
		if model.OwnSecretVar(n) || n == "AWS_SECRET_ACCESS_KEY" {
			t.Errorf("the sandboxed server received %s", n)
		}
	}
	for _, want := range []string{"PATH", "HOME", "TMPDIR", "API_KEY"} {
		if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+want+" ") {
			t.Errorf("the sandboxed server lacks %s: %v", want, names)
		}
	}
	if got := b.tool("env", map[string]string{"name": "TMPDIR"}); got != "/tmp" {
		t.Errorf("TMPDIR = %q", got)
	}
}
