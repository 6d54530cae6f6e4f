package engine

import (
	"testing"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/testdata/launchtest"
)

// TestLauncherKnowsTheProject: the launcher a server's connection gets
// knows the project's root, which a sandboxed server reads even when it
// runs elsewhere (a user server starts in the home directory).
func TestLauncherKnowsTheProject(t *testing.T) {
	e := newEngine(Options{})
	srv := launchtest.Server(t, "", "boxed", map[string]any{"command": "x", "sandbox": true})
	e.locked(func() { e.res = &config.Resolved{ProjectRoot: "/work/proj"} })
	en := &entry{}
	configure(en, srv, nil, nil)
	if got := e.run.connOptions(srv, en.mask, &en.policy).Launcher.Project; got != "/work/proj" {
		t.Errorf("launcher project %q, want /work/proj", got)
	}
}
