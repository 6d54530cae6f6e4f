package launch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/testdata/boxtest"
	"github.com/mcpdeck/mcpdeck/testdata/launchtest"
)

// TestPolicyMaximumJudgesWhatAPathReaches: a write path inside the
// rule's maximum as written, but a symbolic link to the home directory,
// is judged as the home directory: nothing starts, and the error names
// the rule.
func TestPolicyMaximumJudgesWhatAPathReaches(t *testing.T) {
	root := t.TempDir()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "home", "proj")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(home, filepath.Join(project, "out")); err != nil {
		t.Fatal(err)
	}
	script, marker := launchtest.Marker(t, filepath.Join(root, "bin", "server"))
	pol := launchtest.Load(t, `{"sandboxedMcpServers": [{"serverCommand": ["*"], "maximum": {"write": [`+strconv.Quote(project)+`]}}]}`, nil).ManagedPolicy
	l, started := recording(Launcher{Policy: pol, Server: "s", Project: project})
	box := &model.Sandbox{Profile: model.SandboxProfileDefault, Write: []string{filepath.Join(project, "out")}}
	if rule, beyond := pol.SandboxBeyond("s", model.Program{Path: script}, box, nil); beyond {
		t.Fatalf("as written the path is inside the maximum, yet: %s", rule)
	}
	_, err := l.Start(Spec{Command: script, Dir: project, Sandbox: box}, nil, nil, nil)
	var be *BlockedError
	if !errors.As(err, &be) || !strings.Contains(be.Rule, "maximum: write ") {
		t.Fatalf("Start = %v", err)
	}
	if len(*started) != 0 || launchtest.Ran(marker) {
		t.Errorf("started %v", *started)
	}
}

// TestHelperUnderTheRequirementIsSandboxed, with real bubblewrap: a
// remote server that sandboxedMcpServers names runs its headersHelper
// in a sandbox, where the planted key cannot be read (it can without
// the rule: the test can fail); a helper whose sandbox goes past the
// rule's maximum does not run at all.
func TestHelperUnderTheRequirementIsSandboxed(t *testing.T) {
	boxtest.RequireMechanism(t)
	_, key := boxtest.PlantHome(t)
	def := map[string]any{"type": "http", "url": "https://mcp.example.com/mcp", "headersHelper": "cat " + textsafe.QuoteArg(key)}
	ctx := context.Background()
	lim := platform.Limits{Timeout: time.Minute, MaxOutput: 4096}
	free := For(launchtest.Server(t, "", "remote", def))
	if out, err := free.RunShell(ctx, "cat "+textsafe.QuoteArg(key), nil, "", nil, lim); err != nil || string(out) != boxtest.Key {
		t.Fatalf("without the rule the helper reads %q, %v: the test would prove nothing", out, err)
	}
	srv := launchtest.Server(t, `{"sandboxedMcpServers": [{"serverName": "remote"}]}`, "remote", def)
	out, err := For(srv).RunShell(ctx, "cat "+textsafe.QuoteArg(key), nil, "", nil, lim)
	if err == nil || strings.Contains(string(out), boxtest.Key) {
		t.Errorf("under the rule the helper read the key: %q, %v", out, err)
	}
	if out, err := For(srv).RunShell(ctx, "echo in-sandbox", nil, "", nil, lim); err != nil || string(out) != "in-sandbox\n" {
		t.Errorf("a harmless helper under the rule: %q, %v", out, err)
	}

	bounded := For(launchtest.Server(t, `{"sandboxedMcpServers": [{"serverName": "remote", "maximum": {"network": "none"}}]}`, "remote", def))
	bounded.Sandbox = &model.Sandbox{Profile: model.SandboxProfileDefault, Network: model.SandboxNetwork{All: true}}
	marker := filepath.Join(t.TempDir(), "ran")
	_, err = bounded.RunShell(ctx, ": > "+textsafe.QuoteArg(marker), nil, "", nil, lim)
	if !errors.Is(err, ErrBlocked) || !strings.Contains(err.Error(), "maximum: network all") || launchtest.Ran(marker) {
		t.Errorf("a helper past the maximum: %v (ran: %v)", err, launchtest.Ran(marker))
	}
}
