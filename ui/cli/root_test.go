package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
)

// TestRunInProcess checks help and exit codes without the binary, with the
// LoadOptions hook pointing at a temporary machine.
func TestRunInProcess(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	if code := Run(context.Background(), []string{"mcp", "add", "--help"}, strings.NewReader(""), &out, &errb); code != clierr.ExitOK {
		t.Fatalf("--help exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"-- COMMAND", "--scope", "--transport", "--client-secret", "Examples:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("mcp add --help lacks %q", want)
		}
	}
	out.Reset()
	errb.Reset()
	if code := Run(context.Background(), []string{"mcp", "nope"}, strings.NewReader(""), &out, &errb); code != clierr.ExitUsage {
		t.Fatalf("unknown subcommand exit %d", code)
	}
	if got := errb.String(); !strings.HasPrefix(got, `mcpdeck: unknown command "nope" for "mcpdeck mcp"`) {
		t.Errorf("stderr = %q", got)
	}
}

func TestLoadOptionsHook(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var out, errb bytes.Buffer
	g := &clicore.Globals{Stdout: &out, Stderr: &errb, NewLoadOptions: func(dynamic []string) (config.LoadOptions, error) {
		return config.LoadOptions{Cwd: dir, Home: dir, ConfigDir: dir + "/cfg", ManagedDir: dir + "/managed", Dynamic: dynamic}, nil
	}}
	root := newRootCmd(g)
	root.SetArgs([]string{"--mcp-config", `{"mcpServers":{"d":{"command":"x"}}}`, "mcp", "get", "d", "--json"})
	root.SetOut(&out)
	root.SetErr(&errb)
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"scope": "dynamic"`) || !g.JSON || len(g.MCPConfig) != 1 {
		t.Errorf("out = %s, opts = %+v", out.String(), g)
	}
}
