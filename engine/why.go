package engine

import (
	"errors"
	"os"
	"os/exec"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// blockers lists every standing reason srv cannot run as configured, most
// decisive first: policy, disabled by you, approval, config problems, a
// command that cannot be found. It searches PATH, so callers do not hold
// e.mu. Runtime reasons (needs auth, last crash) come from the state.
func blockers(srv model.Server, lookPath func(string) (string, error)) []model.Reason {
	var out []model.Reason
	if !srv.Policy.Allowed {
		out = append(out, model.Reason{Kind: model.ReasonBlockedByPolicy, Rule: srv.Policy.Rule})
	}
	if !srv.Enabled {
		out = append(out, model.Reason{Kind: model.ReasonDisabledByYou})
	}
	switch srv.Approval.Status {
	case model.ApprovalPending, model.ApprovalChanged:
		out = append(out, model.Reason{Kind: model.ReasonAwaitingApproval, Changed: srv.Approval.Status == model.ApprovalChanged})
	case model.ApprovalRejected:
		out = append(out, model.Reason{Kind: model.ReasonRejectedByYou})
	case model.ApprovalNotNeeded, model.ApprovalApproved:
	}
	for i := range srv.Problems {
		out = append(out, model.Reason{Kind: model.ReasonConfigProblem, Problem: &srv.Problems[i]})
	}
	if srv.Config.EffectiveType() == model.TransportStdio && srv.Config.Command != "" && lookPath != nil {
		if found, missing := findCommand(srv.Config.Command, lookPath); !found {
			shown := model.NewMasker(srv.Secrets()...).Mask(srv.Config.Command) // expanded: ${VAR}s put their values in it
			out = append(out, model.Reason{Kind: model.ReasonCommandNotFound, Command: shown, Missing: missing})
		}
	}
	return out
}

// ErrCannotRun refuses to connect a server whose definition may not run;
// the error lists the blockers' kinds (ui/status words them).
var ErrCannotRun = errors.New("the server cannot run")

// blockerKinds lists the kinds of bs for an error: "disabled-by-you, …".
func blockerKinds(bs []model.Reason) string {
	kinds := make([]string, len(bs))
	for i, b := range bs {
		kinds[i] = string(b.Kind)
	}
	return strings.Join(kinds, ", ")
}

// findCommand reports whether a stdio command can be found; missing is set
// when it names a path that does not exist.
func findCommand(cmd string, lookPath func(string) (string, error)) (found, missing bool) {
	if strings.ContainsRune(cmd, os.PathSeparator) {
		if _, err := os.Stat(cmd); err != nil {
			return false, true
		}
		return true, false
	}
	_, err := lookPath(cmd)
	return err == nil, false
}

// defaultLookPath is exec.LookPath.
func defaultLookPath(file string) (string, error) { return exec.LookPath(file) }
