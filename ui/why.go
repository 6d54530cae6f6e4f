package ui

import (
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/styles"
)

// whyLines explains why s is not connected, from everything the snapshot
// knows: the engine's reasons, the approval diff, the policy rule, config
// problems and the last exit code. It returns nil for a connected server.
func whyLines(st *styles.Styles, s *engine.ServerSnapshot) []string {
	if s.State == model.StateConnected {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(line string) {
		if line == "" || seen[line] {
			return
		}
		seen[line] = true
		out = append(out, "• "+line)
	}
	for _, w := range s.Why {
		add(w)
	}
	if !s.Enabled && len(s.Why) == 0 && s.Policy.Allowed {
		add("disabled by you — press e to enable")
	}
	if !s.Policy.Allowed {
		rule := s.Policy.Rule
		if rule == "" {
			rule = "(unnamed rule)"
		}
		add("blocked by managed policy rule " + rule)
	}
	switch s.Approval.Status {
	case model.ApprovalPending:
		add("awaiting your approval (project server from .mcp.json) — A approve, x reject")
	case model.ApprovalChanged:
		add("its definition changed since you approved it — A approve again, x reject")
	case model.ApprovalRejected:
		add("rejected by you — A to approve")
	case model.ApprovalNotNeeded, model.ApprovalApproved:
	}
	for _, p := range s.Problems {
		add(p.Error())
	}
	if s.State == model.StateNeedsAuth {
		add("needs authentication — press a to sign in")
	}
	if s.ExitCode != nil {
		add(fmt.Sprintf("last run exited with code %d", *s.ExitCode))
	}
	if s.Error != "" && len(out) == 0 {
		add(s.Error)
	}
	if s.State == model.StatePending && len(out) == 0 {
		add("still connecting")
	}
	if s.Approval.Status == model.ApprovalChanged && s.Approval.Diff != "" {
		out = append(out, "", st.Heading.Render("What changed:"))
		out = append(out, diffLines(st, s.Approval.Diff)...)
	}
	return out
}

// diffLines colours a line-based diff: + added, - removed.
func diffLines(st *styles.Styles, diff string) []string {
	lines := strings.Split(strings.TrimRight(diff, "\n"), "\n")
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "+"):
			lines[i] = st.DiffAdd.Render(l)
		case strings.HasPrefix(l, "-"):
			lines[i] = st.DiffDel.Render(l)
		default:
			lines[i] = st.Code.Render(l)
		}
	}
	return lines
}

// whyPanel renders whyLines in a bordered panel of the given width.
func whyPanel(st *styles.Styles, s *engine.ServerSnapshot, width int) []string {
	lines := whyLines(st, s)
	if len(lines) == 0 {
		return nil
	}
	body := st.Heading.Render("Why isn't this running?") + "\n" + strings.Join(lines, "\n")
	return strings.Split(st.Panel.Width(max(width-2, 10)).Render(body), "\n")
}
