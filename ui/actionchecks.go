package ui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/review"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// The checks of the action table (actiontable.go): whether an action can
// run on a server now and, if not, why, in the words after "verb: ".

func canEnable(s *engine.ServerSnapshot) (bool, string) {
	// a blocked server you also disabled can be enabled: that undoes your
	// choice (it stays blocked), so you are not stuck with it
	switch {
	case s.Enabled && status.IsBlocked(s):
		return false, status.CannotRun(model.Reason{Kind: model.ReasonBlockedByPolicy, Rule: s.Policy.Rule}, s.Name, status.InTUI)
	case s.Enabled:
		return false, "server is already enabled"
	}
	return true, ""
}

func canDisable(s *engine.ServerSnapshot) (bool, string) {
	if !s.Enabled {
		return false, "server is already disabled"
	}
	return true, ""
}

// canReconnect follows the engine's decision (Runnable) and words its
// first blocker: the UI does not decide again whether a server may run.
func canReconnect(s *engine.ServerSnapshot) (bool, string) {
	if s.Runnable {
		return true, ""
	}
	return false, cannotRun(s)
}

// cannotRun words why the engine will not run s, its first blocker, after
// "verb: " (status.CannotRun).
func cannotRun(s *engine.ServerSnapshot) string {
	if len(s.Blockers) == 0 {
		return "the server cannot run"
	}
	return status.CannotRun(s.Blockers[0], s.Name, status.InTUI)
}

func canStopRetrying(s *engine.ServerSnapshot) (bool, string) {
	if !status.RetryWaits(s) {
		return false, "no retry is scheduled"
	}
	return true, ""
}

func canAuthenticate(s *engine.ServerSnapshot) (bool, string) {
	switch {
	case !s.Transport.Info().OAuth:
		return false, string(s.Transport) + " servers do not use OAuth"
	case !s.Enabled:
		return false, "server is disabled"
	}
	return true, ""
}

func canApprove(s *engine.ServerSnapshot) (bool, string) {
	switch s.Approval.Status {
	case model.ApprovalNotNeeded:
		return false, "only project (.mcp.json) servers need approval"
	case model.ApprovalApproved:
		return false, "server is already approved"
	case model.ApprovalUnknown:
		return false, decisionsUnreadable
	case model.ApprovalPending, model.ApprovalChanged, model.ApprovalRejected:
	}
	return true, ""
}

// decisionsUnreadable is why approving or rejecting waits: the file that
// holds the person's decisions on the project cannot be read (its row, in
// the local group, says where and why).
const decisionsUnreadable = "your decisions on this project cannot be read: fix the local file first (its row says where)"

// canReview: the server's tools changed since the person accepted them
// (or differ from the lock file).
func canReview(s *engine.ServerSnapshot) (bool, string) {
	switch {
	case s.Pins.Off != "":
		return false, "its tools are not pinned (" + s.Pins.Off + ")"
	case len(s.Pins.Changes) == 0:
		return false, "nothing it tells a model changed since you accepted it"
	}
	return true, ""
}

func canReject(s *engine.ServerSnapshot) (bool, string) {
	switch s.Approval.Status {
	case model.ApprovalNotNeeded:
		return false, "only project (.mcp.json) servers need approval"
	case model.ApprovalRejected:
		return false, "server is already rejected"
	case model.ApprovalUnknown:
		return false, decisionsUnreadable
	case model.ApprovalPending, model.ApprovalChanged, model.ApprovalApproved:
	}
	return true, ""
}

// hasItems is the check of call tool, read resource and get prompt: the
// server is connected and lists something of that kind.
func hasItems(t detailTab) func(*engine.ServerSnapshot) (bool, string) {
	return func(s *engine.ServerSnapshot) (bool, string) {
		if s.State != model.StateConnected {
			return false, "server is not connected (" + status.Word(s) + ")"
		}
		if n, what := itemsOn(t, s); n == 0 {
			return false, "server has no " + what
		}
		return true, ""
	}
}

// itemsOn is how many things of a list tab s offers, and their name.
func itemsOn(t detailTab, s *engine.ServerSnapshot) (int, string) {
	switch t {
	case tabTools:
		return len(s.Tools), "tools"
	case tabResources:
		return len(s.Resources) + len(s.Templates), "resources"
	case tabPrompts:
		return len(s.Prompts), "prompts"
	case tabOverview, tabStderr, tabInstructions, tabSkills, tabLogs, tabTraffic, numTabs:
	}
	return 0, ""
}

// The footer's "worth offering" tests: these actions always work by key,
// but shown everywhere they would be noise.
func awaiting(_ *Model, s *engine.ServerSnapshot) bool { return status.AwaitsApproval(s) }

func approvalOpen(_ *Model, s *engine.ServerSnapshot) bool {
	return status.AwaitsApproval(s) || s.Approval.Status == model.ApprovalRejected
}

func needsSignIn(_ *Model, s *engine.ServerSnapshot) bool { return s.State == model.StateNeedsAuth }

// The actions that open a form: on the detail view's own tab they act on
// the selected item (press.item), elsewhere they open a picker.

func openCallTool(m *Model, p press) tea.Cmd {
	s := p.s
	if p.item >= 0 {
		return m.push(openToolCall(m.env, s.Name, s.Tools[p.item], s.ToolsDeniedBy))
	}
	return m.push(openToolPicker(m.env, s))
}

func openReadResource(m *Model, p press) tea.Cmd {
	s := p.s
	if p.item >= 0 {
		return m.push(openResource(m.env, s, p.item))
	}
	return m.push(openResourcePicker(m.env, s))
}

func openGetPrompt(m *Model, p press) tea.Cmd {
	s := p.s
	if p.item >= 0 {
		return m.push(openPrompt(m.env, s.Name, s.Prompts[p.item]))
	}
	return m.push(openPromptPicker(m.env, s))
}

// canWatch is the check of watch resource: a connected server that offers
// subscriptions and lists resources.
func canWatch(s *engine.ServerSnapshot) (bool, string) {
	if ok, why := hasItems(tabResources)(s); !ok {
		return false, why
	}
	if !s.Subscriptions {
		return false, "server does not offer resource subscriptions"
	}
	return true, ""
}

// toggleWatch watches the resource selected in the Resources tab, or stops
// watching it.
func toggleWatch(m *Model, p press) tea.Cmd {
	s := p.s
	if p.item < 0 || p.item >= len(s.Resources) {
		m.status, m.statusErr = p.a.verb+": select a resource (not a template) in the Resources tab", true
		return nil
	}
	uri := s.Resources[p.item].URI
	eng := m.env.eng
	if watchedOf(s, uri) != nil {
		m.status = "unwatch " + uri + "…"
		return m.engineCmd("unwatch "+uri+" on", s.Name, func(ctx context.Context, name string) error { return eng.Unwatch(ctx, name, uri) })
	}
	m.status = "watch " + uri + "…"
	return m.engineCmd("watch "+uri+" on", s.Name, func(ctx context.Context, name string) error { return eng.Watch(ctx, name, uri) })
}

// watchedOf is the watched state of uri on s, nil when not watched.
func watchedOf(s *engine.ServerSnapshot, uri string) *engine.WatchedResource {
	for i := range s.Watched {
		if s.Watched[i].URI == uri {
			return &s.Watched[i]
		}
	}
	return nil
}

// toggleDeny writes (or removes) the permission deny rule of the tool
// selected in the Tools tab: one key to drop a tool from what agents see.
func toggleDeny(m *Model, p press) tea.Cmd {
	s := p.s
	if p.item < 0 {
		m.status, m.statusErr = p.a.verb+": select a tool in the Tools tab", true
		return nil
	}
	t := s.Tools[p.item]
	deny := !t.Denied
	verb := "deny"
	if !deny {
		verb = "allow"
	}
	m.status = verb + " " + t.ExposedName + "…"
	eng, name := m.env.eng, t.Name
	return m.engineCmd(verb+" tool "+name+" on", s.Name, func(ctx context.Context, server string) error {
		return eng.SetToolDenied(ctx, server, name, deny)
	})
}

// openReview is v on a server: the review of its changed tools.
func openReview(m *Model, p press) tea.Cmd {
	ctx, eng, server := m.env.Ctx, m.env.eng, p.s.Name
	accept := func(verb string, names []string) tea.Cmd {
		return func() tea.Msg {
			return actionMsg{verb: verb, server: server, err: eng.AcceptPins(ctx, server, names)}
		}
	}
	return m.push(review.New(m.env.Env, server, p.s.Pins.Changes, p.s.Pins.Findings, accept), nil)
}
