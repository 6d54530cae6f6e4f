package cli

import (
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// engOutcome is what a one-shot CLI command makes of a server's state: the
// engine keeps retrying, but a health check reports the first result.
type engOutcome int

const (
	ocPending   engOutcome = iota // still connecting
	ocConnected                   // ✓
	ocFailed                      // ✗ (includes "failed, retrying")
	ocNeedsAuth                   // !
	ocDisabled                    // ○ disabled, rejected or blocked by policy
	ocApproval                    // … project server awaiting approval
)

// engOutcomeOf classifies a snapshot of one server.
func engOutcomeOf(srv engine.ServerSnapshot) engOutcome {
	switch srv.State {
	case model.StateConnected:
		return ocConnected
	case model.StateFailed:
		return ocFailed
	case model.StateNeedsAuth:
		return ocNeedsAuth
	case model.StateDisabled:
		return ocDisabled
	case model.StatePending:
		switch {
		case !srv.Policy.Allowed || !srv.Enabled || srv.Approval.Status == model.ApprovalRejected:
			return ocDisabled
		case srv.Approval.Status == model.ApprovalPending || srv.Approval.Status == model.ApprovalChanged:
			return ocApproval
		case srv.Attempt > 0 && srv.Error != "":
			// the first attempt failed and a retry is scheduled
			return ocFailed
		}
	}
	return ocPending
}

func (o engOutcome) glyph() string {
	switch o {
	case ocConnected:
		return "✓"
	case ocFailed:
		return "✗"
	case ocNeedsAuth:
		return "!"
	case ocDisabled:
		return "○"
	case ocApproval, ocPending:
		return "…"
	}
	return "?"
}

func (o engOutcome) word() string {
	switch o {
	case ocConnected:
		return "connected"
	case ocFailed:
		return "failed"
	case ocNeedsAuth:
		return "needs auth"
	case ocDisabled:
		return "disabled"
	case ocApproval:
		return "pending approval"
	case ocPending:
		return "pending"
	}
	return "unknown"
}

// engReason is the one-line why for a server that is not connected.
func engReason(srv engine.ServerSnapshot) string {
	if srv.Error != "" {
		r := engFirstLine(srv.Error)
		if srv.State == model.StatePending && srv.Attempt > 0 {
			r += fmt.Sprintf(" (retrying, attempt %d/%d)", srv.Attempt, srv.MaxAttempts)
		}
		return r
	}
	if len(srv.Why) > 0 {
		return strings.TrimSuffix(engFirstLine(srv.Why[0]), ".")
	}
	return ""
}

// engListLine is the `mcp list` line for one server.
func engListLine(srv engine.ServerSnapshot) string {
	o := engOutcomeOf(srv)
	return model.SanitizeLine(fmt.Sprintf("%s %s: %s (%s) — %s", o.glyph(), srv.Name, srv.Target, srv.Transport, engStatusBody(srv)))
}

// engStatusText is the `mcp get` Status line: the glyph and what
// engListLine says after the dash.
func engStatusText(srv engine.ServerSnapshot) string {
	return model.SanitizeLine(engOutcomeOf(srv).glyph() + " " + engStatusBody(srv))
}

// engStatusBody is the outcome in words with its counts or reason.
func engStatusBody(srv engine.ServerSnapshot) string {
	o := engOutcomeOf(srv)
	line := o.word()
	switch o {
	case ocConnected:
		line += fmt.Sprintf(" · %s", engPlural(len(srv.Tools), "tool"))
		if n := len(srv.Resources); n > 0 {
			line += ", " + engPlural(n, "resource")
		}
		if n := len(srv.Prompts); n > 0 {
			line += ", " + engPlural(n, "prompt")
		}
	case ocNeedsAuth:
		line += " (run: mcpdeck auth " + srv.Name + ")"
	case ocApproval:
		line += " (run: mcpdeck mcp approve " + srv.Name + ")"
	case ocFailed, ocDisabled, ocPending:
		if r := engReason(srv); r != "" {
			line += ": " + r
		}
	}
	return line
}

func engPlural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func engFirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
