package doctor

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/sandbox"
	"github.com/mcpdeck/mcpdeck/testdata/boxtest"
)

// TestSandboxCheck: with no mechanism, a server asking for a sandbox
// makes a ✗ that names it and says what to install; with none asking it
// is only worth knowing; with bubblewrap here, its version and path.
func TestSandboxCheck(t *testing.T) {
	boxed := &config.Resolved{Servers: []model.Server{{Name: "boxed", Config: model.ServerConfig{Command: "x", Sandbox: model.DefaultSandbox()}}}}
	open := &config.Resolved{Servers: []model.Server{{Name: "open", Config: model.ServerConfig{Command: "x"}}}}
	missing := func() (sandbox.Mechanism, error) { return sandbox.FindMechanism(func(string) bool { return false }) }
	l := sandboxCheckWith(t.Context(), boxed, missing)
	if l.mark != docBad || !strings.Contains(l.text, "boxed cannot run without it") || !strings.Contains(l.fix, "install") {
		t.Errorf("missing, needed: %+v", l)
	}
	if l := sandboxCheckWith(t.Context(), open, missing); l.mark != docInfo {
		t.Errorf("missing, not needed: %+v", l)
	}
	boxtest.RequireMechanism(t)
	l = sandboxCheck(t.Context(), boxed)
	if l.mark != docOK || !strings.HasPrefix(l.text, "sandbox: bubblewrap ") || !strings.Contains(l.text, "/bwrap)") || !strings.Contains(l.text, "sandboxed: boxed") {
		t.Errorf("bubblewrap here: %+v", l)
	}
}
