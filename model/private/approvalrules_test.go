package private

import (
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

func TestDecideApproval(t *testing.T) {
	cfg := model.ServerConfig{Command: "x"}
	h := model.ConfigHash(cfg)
	old := model.ServerConfig{Command: "old"}
	for _, tc := range []struct {
		name string
		st   Decisions
		want model.ApprovalStatus
	}{
		{"nothing", Decisions{}, model.ApprovalPending},
		{"enabled by name only", Decisions{enabledMcpjson: []string{"srv"}}, model.ApprovalApproved},
		{"normalized name", Decisions{enabledMcpjson: []string{"s.r.v"}}, model.ApprovalPending},
		{"enable all", Decisions{enableAll: true}, model.ApprovalApproved},
		{"rejected beats enable all", Decisions{enableAll: true, disabledMcpjson: []string{"srv"}}, model.ApprovalRejected},
		{"rejected beats enabled", Decisions{enabledMcpjson: []string{"srv"}, disabledMcpjson: []string{"srv"}}, model.ApprovalRejected},
		{"hash matches", Decisions{approved: map[string]approvedEntry{"srv": {Hash: h, Config: cfg}}}, model.ApprovalApproved},
		{"hash differs", Decisions{enabledMcpjson: []string{"srv"}, approved: map[string]approvedEntry{"srv": {Hash: model.ConfigHash(old), Config: old}}}, model.ApprovalChanged},
		{"hash differs but enable all", Decisions{enableAll: true, approved: map[string]approvedEntry{"srv": {Hash: "x"}}}, model.ApprovalApproved},
	} {
		if got := tc.st.Approval("srv", cfg, h); got.Status != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got.Status, tc.want)
		}
	}
	// "my.server" in settings approves the server named "my_server".
	if got := (Decisions{enabledMcpjson: []string{"my.server"}}).Approval("my_server", cfg, h); got.Status != model.ApprovalApproved {
		t.Errorf("normalized compare: %v", got.Status)
	}
}
