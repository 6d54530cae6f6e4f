package ui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// action is something the person can ask the engine to do with one server.
type action int

const (
	actEnable action = iota
	actDisable
	actReconnect
	actCancelRetry
	actAuthenticate
	actApprove
	actReject
	actCallTool
	actReadResource
	actGetPrompt
)

var actionNames = [...]string{"enable", "disable", "reconnect", "stop retrying", "authenticate", "approve", "reject", "call tool", "read resource", "get prompt"}

func (a action) String() string { return actionNames[a] }

// actionMsg reports that an engine action finished.
type actionMsg struct {
	verb, server string
	err          error
}

// available says whether a can be done to s now and, when not, why — in the
// words the footer shows ("reconnect: server is disabled").
func available(a action, s engine.ServerSnapshot) (bool, string) {
	why := func(reason string) (bool, string) { return false, a.String() + ": " + reason }
	blocked := status.IsBlocked(&s)
	switch a {
	case actEnable:
		// a blocked server you also disabled can be enabled: that undoes
		// your choice (it stays blocked), so you are not stuck with it
		switch {
		case s.Enabled && blocked:
			return why("blocked by policy rule " + s.Policy.Rule)
		case s.Enabled:
			return why("server is already enabled")
		}
	case actDisable:
		if !s.Enabled {
			return why("server is already disabled")
		}
	case actReconnect:
		switch {
		case blocked:
			return why("blocked by policy rule " + s.Policy.Rule)
		case !s.Enabled:
			return why("server is disabled")
		case status.AwaitsApproval(&s):
			return why("server is awaiting approval")
		case s.Approval.Status == model.ApprovalRejected:
			return why("server was rejected")
		case len(s.Problems) > 0:
			return why("the config has problems: " + s.Problems[0].Message)
		}
	case actCancelRetry:
		if s.State != model.StatePending || s.NextRetry.IsZero() {
			return why("no retry is scheduled")
		}
	case actAuthenticate:
		if s.Transport != model.TransportHTTP && s.Transport != model.TransportSSE {
			return why(string(s.Transport) + " servers do not use OAuth")
		}
		if !s.Enabled {
			return why("server is disabled")
		}
	case actApprove:
		if s.Approval.Status == model.ApprovalNotNeeded {
			return why("only project (.mcp.json) servers need approval")
		}
		if s.Approval.Status == model.ApprovalApproved {
			return why("server is already approved")
		}
	case actReject:
		if s.Approval.Status == model.ApprovalNotNeeded {
			return why("only project (.mcp.json) servers need approval")
		}
		if s.Approval.Status == model.ApprovalRejected {
			return why("server is already rejected")
		}
	case actCallTool, actReadResource, actGetPrompt:
		if s.State != model.StateConnected {
			return why("server is not connected (" + status.Word(&s) + ")")
		}
		if n, what := itemsFor(a, &s); n == 0 {
			return why("server has no " + what)
		}
	}
	return true, ""
}

// itemsFor is how many things the action can be used on, and their name.
func itemsFor(a action, s *engine.ServerSnapshot) (int, string) {
	switch a {
	case actCallTool:
		return len(s.Tools), "tools"
	case actReadResource:
		return len(s.Resources) + len(s.Templates), "resources"
	case actGetPrompt:
		return len(s.Prompts), "prompts"
	case actEnable, actDisable, actReconnect, actCancelRetry, actAuthenticate, actApprove, actReject:
	}
	return 0, ""
}

// engineAction returns the Cmd that runs a server action in the engine.
func engineAction(ctx context.Context, eng Engine, a action, name string) tea.Cmd {
	var f func(context.Context, string) error
	switch a {
	case actEnable:
		f = eng.Enable
	case actDisable:
		f = eng.Disable
	case actReconnect:
		f = eng.Reconnect
	case actCancelRetry:
		f = eng.CancelReconnect
	case actAuthenticate:
		f = eng.Authenticate
	case actApprove:
		f = eng.Approve
	case actReject:
		f = eng.Reject
	case actCallTool, actReadResource, actGetPrompt:
		return nil // these open a form first
	}
	verb := a.String()
	return func() tea.Msg { return actionMsg{verb: verb, server: name, err: f(ctx, name)} }
}

// actionStatus is the footer line for a finished action.
func actionStatus(m actionMsg) (string, bool) {
	if m.err != nil {
		return fmt.Sprintf("%s %s: %v", m.verb, m.server, m.err), true
	}
	return fmt.Sprintf("%s %s: done", m.verb, m.server), false
}
