package model

import (
	"testing"
)

func TestDecideApproval(t *testing.T) {
	cfg := ServerConfig{Command: "x"}
	h := ConfigHash(cfg)
	old := ServerConfig{Command: "old"}
	for _, tc := range []struct {
		name string
		st   Decisions
		want ApprovalStatus
	}{
		{"nothing", Decisions{}, ApprovalPending},
		{"enabled by name only", Decisions{enabledMcpjson: []string{"srv"}}, ApprovalApproved},
		{"normalized name", Decisions{enabledMcpjson: []string{"s.r.v"}}, ApprovalPending},
		{"enable all", Decisions{enableAll: true}, ApprovalApproved},
		{"rejected beats enable all", Decisions{enableAll: true, disabledMcpjson: []string{"srv"}}, ApprovalRejected},
		{"rejected beats enabled", Decisions{enabledMcpjson: []string{"srv"}, disabledMcpjson: []string{"srv"}}, ApprovalRejected},
		{"hash matches", Decisions{approved: map[string]approvedEntry{"srv": {Hash: h, Config: cfg}}}, ApprovalApproved},
		{"hash differs", Decisions{enabledMcpjson: []string{"srv"}, approved: map[string]approvedEntry{"srv": {Hash: ConfigHash(old), Config: old}}}, ApprovalChanged},
		{"hash differs but enable all", Decisions{enableAll: true, approved: map[string]approvedEntry{"srv": {Hash: "x"}}}, ApprovalApproved},
	} {
		if got := tc.st.Approval("srv", cfg, h); got.Status != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got.Status, tc.want)
		}
	}
	// "my.server" in settings approves the server named "my_server".
	if got := (Decisions{enabledMcpjson: []string{"my.server"}}).Approval("my_server", cfg, h); got.Status != ApprovalApproved {
		t.Errorf("normalized compare: %v", got.Status)
	}
}
