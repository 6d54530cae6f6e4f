package model

// Approval applies the approval rules to the project server name, whose
// definition as written is raw and hashes to hash. Rejection wins; an
// approval recorded with a hash holds only while the definition still hashes
// the same, otherwise the status is Changed with a diff from the approved
// definition; enableAllProjectMcpServers approves everything not rejected; a
// bare name in enabledMcpjsonServers (written by hand or by the reference
// tool, without a hash) approves as the reference does.
func (st Decisions) Approval(name string, raw ServerConfig, hash string) Approval {
	if containsName(st.disabledMcpjson, name) {
		return Approval{Status: ApprovalRejected}
	}
	if st.enableAll {
		return Approval{Status: ApprovalApproved, ApprovedHash: hash}
	}
	if e, ok := st.approved[NormalizeName(name)]; ok {
		if e.Hash == hash {
			return Approval{Status: ApprovalApproved, ApprovedHash: e.Hash}
		}
		return Approval{Status: ApprovalChanged, ApprovedHash: e.Hash, Diff: Diff(e.Config, raw)}
	}
	if containsName(st.enabledMcpjson, name) {
		return Approval{Status: ApprovalApproved}
	}
	return Approval{Status: ApprovalPending}
}
