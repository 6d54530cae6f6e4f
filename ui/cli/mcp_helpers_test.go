package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
)

func TestParseEnvAndHeaders(t *testing.T) {
	t.Parallel()
	env, err := parseEnv([]string{"A=1", "B=x=y", "EMPTY="})
	if err != nil || !reflect.DeepEqual(env, map[string]string{"A": "1", "B": "x=y", "EMPTY": ""}) {
		t.Errorf("parseEnv = %v, %v", env, err)
	}
	for _, bad := range []string{"NOEQ", "=v", "A B=1"} {
		if _, err := parseEnv([]string{bad}); !isUsage(err) {
			t.Errorf("parseEnv(%q) = %v, want a usage error", bad, err)
		}
	}
	h, err := parseHeaders([]string{"Authorization: Bearer ${T}", "X-A:b", "X-Url: https://x:1/"})
	want := map[string]string{"Authorization": "Bearer ${T}", "X-A": "b", "X-Url": "https://x:1/"}
	if err != nil || !reflect.DeepEqual(h, want) {
		t.Errorf("parseHeaders = %v, %v", h, err)
	}
	for _, bad := range []string{"no colon", ": v", "Two Words: v"} {
		if _, err := parseHeaders([]string{bad}); !isUsage(err) {
			t.Errorf("parseHeaders(%q) = %v, want a usage error", bad, err)
		}
	}
}

func isUsage(err error) bool {
	var ue *usageError
	return errors.As(err, &ue)
}

func TestSentence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("%w: server x is already defined in /f", model.ErrExists), "server x is already defined in /f."},
		{fmt.Errorf("%w: no server named y", model.ErrNotFound), "no server named y."},
		{fmt.Errorf("%w: a\n  b.", model.ErrInvalid), "a b."},
		{errors.New("did you mean x?"), "did you mean x?"},
	}
	for _, tt := range tests {
		if got := sentence(tt.err); got != tt.want {
			t.Errorf("sentence(%q) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

// TestRunInProcess checks help and exit codes without the binary, with the
// LoadOptions hook pointing at a temporary machine.
func TestRunInProcess(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"mcp", "add", "--help"}, strings.NewReader(""), &out, &errb); code != exitOK {
		t.Fatalf("--help exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"-- COMMAND", "--scope", "--transport", "--client-secret", "Examples:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("mcp add --help lacks %q", want)
		}
	}
	out.Reset()
	errb.Reset()
	if code := run(context.Background(), []string{"mcp", "nope"}, strings.NewReader(""), &out, &errb); code != exitUsage {
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
	g := &globalOpts{stdout: &out, stderr: &errb, newLoadOptions: func(dynamic []string) (config.LoadOptions, error) {
		return config.LoadOptions{Cwd: dir, Home: dir, ConfigDir: dir + "/cfg", ManagedDir: dir + "/managed", Dynamic: dynamic}, nil
	}}
	root := newRootCmd(g)
	root.SetArgs([]string{"--mcp-config", `{"mcpServers":{"d":{"command":"x"}}}`, "mcp", "get", "d", "--json"})
	root.SetOut(&out)
	root.SetErr(&errb)
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"scope": "dynamic"`) || !g.json || len(g.mcpConfig) != 1 {
		t.Errorf("out = %s, opts = %+v", out.String(), g)
	}
}
