package config

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestPinsOffOnlyInUserOrLocalScope: "pinTools": false turns pinning off
// in user and local scope; a project, plugin or dynamic definition cannot,
// nor can anyone under forceToolPinning.
func TestPinsOffOnlyInUserOrLocalScope(t *testing.T) {
	srv := func(scope model.Scope, v string) model.Server {
		return model.Server{Name: "s", Scope: scope, Raw: model.ServerConfig{Extra: map[string]json.RawMessage{"pinTools": json.RawMessage(v)}}}
	}
	for _, scope := range []model.Scope{model.ScopeUser, model.ScopeLocal} {
		if off, _ := PinsOff(srv(scope, "false"), false); off == "" {
			t.Errorf("%s: still pinned", scope)
		}
		if off, note := PinsOff(srv(scope, "false"), true); off != "" || !strings.Contains(note, "managed policy") {
			t.Errorf("%s forced: %q %q", scope, off, note)
		}
	}
	for _, scope := range []model.Scope{model.ScopeProject, model.ScopeDynamic, model.ScopePlugin} {
		if off, note := PinsOff(srv(scope, "false"), false); off != "" || note == "" {
			t.Errorf("%s: %q %q", scope, off, note)
		}
	}
	if off, note := PinsOff(srv(model.ScopeUser, `"no"`), false); off != "" || note == "" {
		t.Errorf("not a bool: %q %q", off, note)
	}
}

// TestManagedPolicyForcesPinning: "forceToolPinning": true in
// managed-settings.json sets Resolved.ForcePins, which overrides a user
// definition's "pinTools": false; a value that is not a bool still
// forces, with a problem.
func TestManagedPolicyForcesPinning(t *testing.T) {
	for _, tc := range []struct {
		policy string
		forced bool
	}{{``, false}, {`{"forceToolPinning": true}`, true}, {`{"forceToolPinning": false}`, false}, {`{"forceToolPinning": "yes"}`, true}} {
		f := newFixture(t)
		f.write(f.userFile(), servers("s", `{"command":"x","pinTools":false}`))
		if tc.policy != "" {
			f.write(filepath.Join(f.managed, ManagedSettingsFile), tc.policy)
		}
		r := f.load()
		if r.ForcePins != tc.forced {
			t.Errorf("%s: ForcePins %v", tc.policy, r.ForcePins)
		}
		off, _ := PinsOff(mustServer(t, r, "s"), r.ForcePins)
		if (off == "") != tc.forced {
			t.Errorf("%s: off %q", tc.policy, off)
		}
	}
}
