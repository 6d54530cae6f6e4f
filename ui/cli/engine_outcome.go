package cli

import (
	"fmt"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// engOutcomeOf is status.OutcomeOf for a snapshot held by value.
func engOutcomeOf(srv engine.ServerSnapshot) status.Outcome { return status.OutcomeOf(&srv) }

// engReason is status.Reason for a snapshot held by value.
func engReason(srv engine.ServerSnapshot) string { return status.Reason(&srv) }

// engListLine is the `mcp list` line for one server.
func engListLine(srv engine.ServerSnapshot) string {
	o := engOutcomeOf(srv)
	return textsafe.SanitizeLine(fmt.Sprintf("%s %s: %s (%s) — %s", o.Glyph(), srv.Name, srv.Target, srv.Transport, engStatusBody(srv)))
}

// engStatusText is the `mcp get` Status line: the glyph and what
// engListLine says after the dash.
func engStatusText(srv engine.ServerSnapshot) string {
	return textsafe.SanitizeLine(engOutcomeOf(srv).Glyph() + " " + engStatusBody(srv))
}

// engStatusBody is the outcome in words with its counts or reason.
func engStatusBody(srv engine.ServerSnapshot) string {
	o := engOutcomeOf(srv)
	line := o.Word()
	switch o {
	case status.OutcomeConnected:
		line += " · " + status.Counts(&srv)
	case status.OutcomeNeedsAuth:
		line += " (run: mcpdeck auth " + srv.Name + ")"
	case status.OutcomeApproval:
		line += " (run: mcpdeck mcp approve " + srv.Name + ")"
	case status.OutcomeFailed, status.OutcomeDisabled, status.OutcomePending:
		if r := engReason(srv); r != "" {
			line += ": " + r
		}
	}
	return line
}
