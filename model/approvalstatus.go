package model

// ApprovalStatus is where a project (.mcp.json) server stands with the person.
type ApprovalStatus int

const (
	ApprovalNotNeeded ApprovalStatus = iota // not a project server
	ApprovalApproved
	ApprovalPending // never decided
	ApprovalChanged // approved, but the definition changed since: ask again
	ApprovalRejected
	// ApprovalUnknown: the file that holds the person's decisions on the
	// project cannot be read, so whether they approved it is not known.
	// It does not run, and it is not asked about as if it were new: the
	// file's problem is on the server (Server.Problems) until it is fixed.
	ApprovalUnknown
)

var approvalNames = [...]string{"not-needed", "approved", "pending", "changed", "rejected", "unknown"}

// String returns the name shown in listings.
func (a ApprovalStatus) String() string {
	if a < 0 || int(a) >= len(approvalNames) {
		return "unknown"
	}
	return approvalNames[a]
}

// MarshalText lets ApprovalStatus appear by name in JSON.
func (a ApprovalStatus) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// Approval carries the status and, when the definition changed after approval,
// a readable diff between the approved and the current definition.
type Approval struct {
	Status       ApprovalStatus `json:"status"`
	ApprovedHash string         `json:"approvedHash,omitempty"`
	Diff         string         `json:"diff,omitempty"`
}
