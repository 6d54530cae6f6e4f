package ui

import (
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/styles"
)

// whyLines explains why s is not connected. The engine's reasons (Why) come
// first and are trusted; what the snapshot knows beyond them — the policy
// rule, approval, config problems, needs-auth, the last error and exit code —
// is added only when the engine did not already say it. A reason carrying a
// diff (changed since approval) has its diff lines coloured. It returns nil
// for a connected server.
func whyLines(st *styles.Styles, s *engine.ServerSnapshot) []string {
	if s.State == model.StateConnected {
		return nil
	}
	var out []string
	var said strings.Builder
	diffShown := false
	for _, w := range s.Why {
		first, rest, hasRest := strings.Cut(w, "\n")
		out = append(out, "• "+model.SanitizeLine(first))
		said.WriteString(strings.ToLower(first) + "\n")
		if hasRest {
			out = append(out, diffLines(st, rest)...)
			diffShown = true
		}
	}
	mentioned := func(words ...string) bool {
		all := said.String()
		for _, w := range words {
			if !strings.Contains(all, strings.ToLower(w)) {
				return false
			}
		}
		return true
	}
	add := func(line string, unlessMentioned ...string) {
		if line == "" || (len(unlessMentioned) > 0 && mentioned(unlessMentioned...)) {
			return
		}
		out = append(out, "• "+model.SanitizeLine(line))
		said.WriteString(strings.ToLower(line) + "\n")
	}
	if !s.Policy.Allowed {
		add("blocked by managed policy rule "+orDefault(s.Policy.Rule, "(unnamed)"), "polic")
	}
	if !s.Enabled {
		add("disabled by you — press e to enable", "disabled")
	}
	switch s.Approval.Status {
	case model.ApprovalPending:
		add("awaiting your approval (project server from .mcp.json) — A approve, x reject", "approv")
	case model.ApprovalChanged:
		add("its definition changed since you approved it — A approve again, x reject", "approv")
	case model.ApprovalRejected:
		add("rejected by you — A to approve", "reject")
	case model.ApprovalNotNeeded, model.ApprovalApproved:
	}
	for _, p := range s.Problems {
		add(p.Error(), p.Message)
	}
	if s.State == model.StateNeedsAuth {
		add("needs authentication — press a to sign in", "auth")
	}
	if s.State == model.StateFailed && s.Error != "" {
		add(s.Error, firstLine(s.Error))
	}
	if s.ExitCode != nil {
		add(fmt.Sprintf("last run exited with code %d", *s.ExitCode), fmt.Sprintf("code %d", *s.ExitCode))
	}
	if s.State == model.StatePending && len(out) == 0 {
		add("still connecting")
	}
	if s.Approval.Status == model.ApprovalChanged && s.Approval.Diff != "" && !diffShown {
		out = append(out, "", st.Heading.Render("What changed:"))
		out = append(out, diffLines(st, s.Approval.Diff)...)
	}
	return out
}

// diffLines colours a line-based diff: + added, - removed.
func diffLines(st *styles.Styles, diff string) []string {
	lines := strings.Split(strings.TrimRight(diff, "\n"), "\n")
	for i, l := range lines {
		l = model.SanitizeLine(l)
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
