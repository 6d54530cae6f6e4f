package ui

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/styles"
)

// glyph returns the state glyph and its style.
func glyph(st *styles.Styles, s *engine.ServerSnapshot) string {
	switch {
	case needsApproval(*s) && s.State != model.StateConnected:
		return st.Warn.Render("?")
	case isBlocked(*s) && s.State != model.StateConnected:
		return st.Off.Render("⊘")
	}
	switch s.State {
	case model.StateConnected:
		return st.Good.Render("●")
	case model.StatePending:
		return st.Warn.Render("◌")
	case model.StateFailed:
		return st.Bad.Render("✗")
	case model.StateNeedsAuth:
		return st.Auth.Render("◆")
	case model.StateDisabled:
		return st.Off.Render("○")
	}
	return "·"
}

func (l *serverList) renderRow(s *engine.ServerSnapshot, selected bool) string {
	name := ansi.Truncate(model.SanitizeLine(s.Name), l.nameW, "…")
	name += strings.Repeat(" ", max(0, l.nameW-ansi.StringWidth(name)))
	status, style := rowStatus(l.st, s, l.now())
	status = model.SanitizeLine(status) // errors, reasons and rules are outside text
	transport := fmt.Sprintf("%-5s", s.Transport)
	if selected {
		// plain text under one style: inner resets would cut the highlight
		line := ansi.Strip("› " + glyph(l.st, s) + " " + name + "  " + transport + "  " + status)
		line = ansi.Truncate(line, l.width, "…")
		line += strings.Repeat(" ", max(0, l.width-ansi.StringWidth(line)))
		return l.st.Selected.Render(line)
	}
	line := "  " + glyph(l.st, s) + " " + name + "  " + l.st.Muted.Render(transport) + "  " + style.Render(status)
	return ansi.Truncate(line, l.width, "…")
}

// rowStatus is the short text after a server's name.
func rowStatus(st *styles.Styles, s *engine.ServerSnapshot, now time.Time) (string, lipgloss.Style) {
	if needsApproval(*s) && s.State != model.StateConnected {
		if s.Approval.Status == model.ApprovalChanged {
			return "changed since approval · A approve · x reject", st.Warn
		}
		return "awaiting approval · A approve · x reject", st.Warn
	}
	switch s.State {
	case model.StateConnected:
		return countsText(s), st.Text
	case model.StatePending:
		return pendingText(s, now), st.Warn
	case model.StateFailed:
		return firstLine(orDefault(s.Error, "failed")), st.Bad
	case model.StateNeedsAuth:
		if s.AuthURL != "" {
			return "signing in… finish in your browser", st.Auth
		}
		return "needs authentication · a to sign in", st.Auth
	case model.StateDisabled:
		if isBlocked(*s) {
			return "blocked by policy: " + s.Policy.Rule, st.Off
		}
		if s.Approval.Status == model.ApprovalRejected {
			return "rejected by you · A approve", st.Off
		}
		if len(s.Why) > 0 {
			return firstLine(s.Why[0]), st.Off
		}
		return "disabled", st.Off
	}
	return s.State.String(), st.Text
}

// isBlocked reports whether a managed policy rule forbids the server.
func isBlocked(s engine.ServerSnapshot) bool { return !s.Policy.Allowed && s.Policy.Rule != "" }

// stateWord is the state in words, saying what the bare state would hide:
// an unapproved project server is "pending" for the engine but waits for the
// person, not for a connection; a blocked one is "disabled" by policy, not by you.
func stateWord(s *engine.ServerSnapshot) string {
	if s.State != model.StateConnected {
		switch {
		case needsApproval(*s) && s.Approval.Status == model.ApprovalChanged:
			return "changed since approval"
		case needsApproval(*s):
			return "awaiting approval"
		case isBlocked(*s):
			return "blocked by policy"
		}
	}
	return s.State.String()
}

// stateText is stateWord with the live countdown of a pending retry.
func stateText(s *engine.ServerSnapshot, now time.Time) string {
	if w := stateWord(s); w != s.State.String() || s.State != model.StatePending {
		return w
	}
	return pendingText(s, now)
}

// countsText is "3 tools · 2 resources · 1 prompt".
func countsText(s *engine.ServerSnapshot) string {
	plural := func(n int, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %ss", n, one)
	}
	return plural(len(s.Tools), "tool") + " · " + plural(len(s.Resources)+len(s.Templates), "resource") + " · " + plural(len(s.Prompts), "prompt")
}

// pendingText is "attempt 2/5 · retry in 7s" or "connecting…".
func pendingText(s *engine.ServerSnapshot, now time.Time) string {
	if s.Attempt == 0 {
		return "connecting…"
	}
	maxA := s.MaxAttempts
	if maxA == 0 {
		maxA = 5
	}
	t := fmt.Sprintf("attempt %d/%d", s.Attempt, maxA)
	if s.NextRetry.IsZero() {
		return t + " · connecting…"
	}
	secs := int(math.Ceil(s.NextRetry.Sub(now).Seconds()))
	if secs <= 0 {
		return t + " · retrying…"
	}
	return fmt.Sprintf("%s · retry in %ds · r retry now · s stop", t, secs)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
