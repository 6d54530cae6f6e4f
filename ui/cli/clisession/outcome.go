package clisession

import (
	"fmt"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// OutcomeOf is status.OutcomeOf for a snapshot held by value.
func OutcomeOf(srv engine.ServerSnapshot) status.Outcome { return status.OutcomeOf(&srv) }

// Reason is status.Reason for a snapshot held by value.
func Reason(srv engine.ServerSnapshot) string { return status.Reason(&srv) }

// ListLine is the `mcp list` line for one server.
func ListLine(srv engine.ServerSnapshot) string {
	how := TransportText(srv.Transport, srv.Config.Sandbox)
	if srv.Editor != nil {
		how += ", " + srv.Editor.From()
	}
	return textsafe.SanitizeLine(fmt.Sprintf("%s %s: %s (%s) — %s", status.Mark(&srv), srv.Name, srv.Target, how, StatusBody(srv)))
}

// TransportText is a server's transport as `mcp list` shows it, marked
// when the server runs in a sandbox: "stdio, sandboxed".
func TransportText(t model.Transport, box *model.Sandbox) string {
	if box != nil {
		return string(t) + ", sandboxed"
	}
	return string(t)
}

// StatusText is the `mcp get` Status line: the glyph and what
// ListLine says after the dash.
func StatusText(srv engine.ServerSnapshot) string {
	return textsafe.SanitizeLine(status.Mark(&srv) + " " + StatusBody(srv))
}

// StatusBody is the outcome in words with its counts or reason.
func StatusBody(srv engine.ServerSnapshot) string {
	o := OutcomeOf(srv)
	line := o.Word()
	switch o {
	case status.OutcomeConnected:
		line += " · " + status.Counts(&srv)
		if len(srv.ToolsDeniedBy) > 0 && len(srv.Tools) > 0 {
			line += " · " + status.ToolsDeniedShort(srv.ToolsDeniedBy)
		}
	case status.OutcomeNeedsAuth:
		line += " (run: mcpdeck auth " + textsafe.QuoteArg(srv.Name) + ")"
	case status.OutcomeApproval:
		line += " (run: mcpdeck mcp approve " + textsafe.QuoteArg(srv.Name) + ")"
	case status.OutcomeDisabled: // its reason says how: by you, rejected, blocked
		line = status.Off(&srv)
	default: // failed, pending: the word and why
		if r := Reason(srv); r != "" {
			line += ": " + r
		}
	}
	return line
}
