package lifecycle

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

func TestReconcile(t *testing.T) {
	run := func(name, hash string) model.Server {
		cfg := model.ServerConfig{Command: "true"}
		return model.Server{
			Name: name, Scope: model.ScopeUser, Raw: cfg, Config: cfg, Hash: hash,
			Enabled: true, Policy: model.PolicyDecision{Allowed: true},
		}
	}
	off := func(name, hash string) model.Server {
		s := run(name, hash)
		s.Enabled = false
		return s
	}
	tests := []struct {
		name    string
		desired []model.Server
		have    map[string]RunInfo
		want    string
	}{
		{"new runnable starts", []model.Server{run("a", "1")}, nil, "start a"},
		{"new disabled is shown", []model.Server{off("a", "1")}, nil, "add a"},
		{"unchanged stays", []model.Server{run("a", "1")}, map[string]RunInfo{"a": {"1", true, true}}, "update a"},
		{"hash changed restarts", []model.Server{run("a", "2")}, map[string]RunInfo{"a": {"1", true, true}}, "restart a"},
		{"failed unchanged stays failed", []model.Server{run("a", "1")}, map[string]RunInfo{"a": {"1", true, false}}, "update a"},
		{"failed changed restarts", []model.Server{run("a", "2")}, map[string]RunInfo{"a": {"1", true, false}}, "restart a"},
		{"disabled now stops", []model.Server{off("a", "1")}, map[string]RunInfo{"a": {"1", true, true}}, "stop a"},
		{"still disabled updates", []model.Server{off("a", "2")}, map[string]RunInfo{"a": {"1", false, false}}, "update a"},
		{"enabled starts", []model.Server{run("a", "1")}, map[string]RunInfo{"a": {"1", false, false}}, "start a"},
		{"removed is removed", nil, map[string]RunInfo{"b": {"1", true, true}, "a": {"1", true, false}}, "remove a, remove b"},
		{
			"mixed",
			[]model.Server{run("a", "1"), run("b", "9"), run("c", "1")},
			map[string]RunInfo{"a": {"1", true, true}, "b": {"1", true, true}, "d": {"1", true, true}},
			"update a, restart b, start c, remove d",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, a := range Reconcile(tt.desired, tt.have) {
				got = append(got, a.Kind.String()+" "+a.Name)
			}
			if s := strings.Join(got, ", "); s != tt.want {
				t.Errorf("reconcile = %q, want %q", s, tt.want)
			}
		})
	}
}
