package private

import (
	"github.com/mcpdeck/mcpdeck/model"
)

// Approval applies the approval rules to the project server name, whose
// definition as written is raw and hashes to hash. Rejection wins; an
// approval recorded with a hash holds only while the definition still hashes
// the same, otherwise the status is Changed with a diff from the approved
// definition; enableAllProjectMcpServers approves everything not rejected; a
// bare name in enabledMcpjsonServers (written by hand or by the reference
// tool, without a hash) approves as the reference does. Decisions that
// could not be read (Unknown) approve and reject nothing.
func (st Decisions) Approval(name string, raw model.ServerConfig, hash string) model.Approval {
	if st.unreadable != nil {
		return model.Approval{Status: model.ApprovalUnknown}
	}
	if containsName(st.disabledMcpjson, name) {
		return model.Approval{Status: model.ApprovalRejected}
	}
	if st.enableAll {
		return model.Approval{Status: model.ApprovalApproved, ApprovedHash: hash}
	}
	if e, ok := st.approved[model.NormalizeName(name)]; ok {
		if e.Hash == hash {
			return model.Approval{Status: model.ApprovalApproved, ApprovedHash: e.Hash}
		}
		return model.Approval{Status: model.ApprovalChanged, ApprovedHash: e.Hash, Diff: model.Diff(e.Config, raw)}
	}
	if containsName(st.enabledMcpjson, name) {
		return model.Approval{Status: model.ApprovalApproved}
	}
	return model.Approval{Status: model.ApprovalPending}
}
