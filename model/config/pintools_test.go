package config

import (
	"encoding/json"
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
