package engine

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"unicode"
	"unicode/utf8"

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
			out = append(out, model.Reason{Kind: model.ReasonCommandNotFound, Command: srv.Config.Command, Missing: missing})
		}
	}
	return out
}

// whyWords words srv's blockers, one sentence each.
func whyWords(srv model.Server, bs []model.Reason) []string {
	var why []string
	for _, b := range bs {
		why = append(why, blockerSentence(srv, b))
	}
	return why
}

// blockerSentence words one blocker of srv.
func blockerSentence(srv model.Server, b model.Reason) string {
	switch b.Kind {
	case model.ReasonBlockedByPolicy:
		if b.Rule != "" {
			return fmt.Sprintf("Blocked by policy rule %s.", b.Rule)
		}
		return "Blocked by managed policy."
	case model.ReasonDisabledByYou:
		return "Disabled by you (enable it to connect)."
	case model.ReasonAwaitingApproval:
		if !b.Changed {
			return "Awaiting your approval: this server comes from the project's .mcp.json."
		}
		msg := "Awaiting your approval again: the definition changed since you approved it."
		if srv.Approval.Diff != "" {
			msg += "\n" + srv.Approval.Diff
		}
		return msg
	case model.ReasonRejectedByYou:
		return "Rejected by you."
	case model.ReasonConfigProblem:
		return sentence(b.Problem.Error())
	case model.ReasonCommandNotFound:
		if b.Missing {
			return fmt.Sprintf("Command %s does not exist.", b.Command)
		}
		return fmt.Sprintf("Command %s not found on PATH.", b.Command)
	default:
		return sentence(string(b.Kind))
	}
}

// lastCrash words the exit code of the last crash.
func lastCrash(code int) string { return fmt.Sprintf("Last crash: exited with code %d.", code) }

// sentence makes s (an error text, usually lowercase and unpunctuated) read
// as a sentence: capital first letter, final full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.ContainsRune(".!?", rune(s[len(s)-1])) {
		s += "."
	}
	return s
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
