package engine

import (
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// reasonsText lists what a snapshot says of why s is not connected, kinds
// and facts only (the sentences are ui/status's): each blocker's kind with
// its rule, command or problem, the state's reason with its error, the
// exit code and the approval diff. Tests search it.
func reasonsText(s ServerSnapshot) string {
	var b strings.Builder
	for _, r := range append(append([]model.Reason(nil), s.Blockers...), s.Reason) {
		fmt.Fprintf(&b, "%s %s%s%s", r.Kind, r.Rule, r.Command, r.Error)
		if r.Problem != nil {
			b.WriteString(r.Problem.Error())
		}
		b.WriteString("|")
	}
	if s.ExitCode != nil {
		fmt.Fprintf(&b, "exited with code %d|", *s.ExitCode)
	}
	b.WriteString(s.Approval.Diff)
	return b.String()
}
