package engine

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestSnapshotShowsRedactedRaw checks that the snapshot shows the definition
// as written, redacted: ${VAR} references stay visible, literal secrets and
// the expanded values never appear.
func TestSnapshotShowsRedactedRaw(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := stdioServer("s")
		srv.Raw = model.ServerConfig{
			Command: "srv", Args: []string{"--api-key=literal-key", "--token", "${GITHUB_TOKEN}", "plain"},
			Env: map[string]string{"GITHUB_TOKEN": "${GITHUB_TOKEN}", "LIT": "literal-env"},
		}
		srv.Config = model.ServerConfig{
			Command: "srv", Args: []string{"--api-key=literal-key", "--token", "ghp_expanded", "plain"},
			Env: map[string]string{"GITHUB_TOKEN": "ghp_expanded", "LIT": "literal-env"},
		}
		e := newTestEngine(t, newFakeNet(), srv)
		mustStart(t, e)
		s := current(t, e, "s")
		all, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{"ghp_expanded", "literal-key", "literal-env"} {
			if strings.Contains(string(all), secret) {
				t.Errorf("snapshot shows %q: %s", secret, all)
			}
		}
		if s.Config.Env["GITHUB_TOKEN"] != "${GITHUB_TOKEN}" || s.Config.Env["LIT"] != model.Masked {
			t.Errorf("env = %v", s.Config.Env)
		}
		if want := "srv --api-key=**** --token ${GITHUB_TOKEN} plain"; s.Target != want {
			t.Errorf("target = %q, want %q", s.Target, want)
		}
	})
}

// TestSnapshotRedactsInjectedServers covers servers given through
// Options.Extra with only their expanded definition: still shown, still
// redacted.
func TestSnapshotRedactsInjectedServers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := stdioServer("x")
		srv.Raw = model.ServerConfig{}
		srv.Config = model.ServerConfig{Command: "srv", Env: map[string]string{"KEY": "literal-secret"}}
		e := newTestEngine(t, newFakeNet(), srv)
		mustStart(t, e)
		s := current(t, e, "x")
		if s.Target != "srv" || s.Config.Env["KEY"] != model.Masked {
			t.Errorf("target %q, env %v", s.Target, s.Config.Env)
		}
	})
}
