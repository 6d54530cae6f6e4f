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

// whyNot explains, one sentence per reason, why srv cannot run as
// configured. Runtime reasons (needs auth, last crash) are added by the
// engine from the server's state.
func whyNot(srv model.Server, lookPath func(string) (string, error)) []string {
	var why []string
	if !srv.Policy.Allowed {
		if srv.Policy.Rule != "" {
			why = append(why, fmt.Sprintf("Blocked by policy rule %s.", srv.Policy.Rule))
		} else {
			why = append(why, "Blocked by managed policy.")
		}
	}
	if !srv.Enabled {
		why = append(why, "Disabled by you (enable it to connect).")
	}
	switch srv.Approval.Status {
	case model.ApprovalPending:
		why = append(why, "Awaiting your approval: this server comes from the project's .mcp.json.")
	case model.ApprovalChanged:
		msg := "Awaiting your approval again: the definition changed since you approved it."
		if srv.Approval.Diff != "" {
			msg += "\n" + srv.Approval.Diff
		}
		why = append(why, msg)
	case model.ApprovalRejected:
		why = append(why, "Rejected by you.")
	case model.ApprovalNotNeeded, model.ApprovalApproved:
	}
	for _, p := range srv.Problems {
		why = append(why, sentence(p.Error()))
	}
	if srv.Config.EffectiveType() == model.TransportStdio && srv.Config.Command != "" && lookPath != nil {
		if msg := commandProblem(srv.Config, lookPath); msg != "" {
			why = append(why, msg)
		}
	}
	return why
}

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

// commandProblem reports a stdio command that cannot be found.
func commandProblem(cfg model.ServerConfig, lookPath func(string) (string, error)) string {
	cmd := cfg.Command
	if strings.ContainsRune(cmd, os.PathSeparator) {
		if _, err := os.Stat(cmd); err != nil {
			return fmt.Sprintf("Command %s does not exist.", cmd)
		}
		return ""
	}
	if _, err := lookPath(cmd); err != nil {
		return fmt.Sprintf("Command %s not found on PATH.", cmd)
	}
	return ""
}

// defaultLookPath is exec.LookPath.
func defaultLookPath(file string) (string, error) { return exec.LookPath(file) }
