package model

// AwaitsApproval reports whether s is a project server the person has not
// approved at its current definition (new, changed since approved, or
// rejected): the one whose definition as written, unmasked, is shown by
// ApprovalView before they approve it.
func (s Server) AwaitsApproval() bool {
	if s.Scope != ScopeProject {
		return false
	}
	switch s.Approval.Status {
	case ApprovalPending, ApprovalChanged, ApprovalRejected:
		return true
	case ApprovalNotNeeded, ApprovalApproved:
	}
	return false
}
