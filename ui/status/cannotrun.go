package status

import (
	"fmt"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Undo says who reads a reason, for the step it names to undo it: the
// TUI's words ("enable it to connect"), or the command line's command
// ("mcpdeck mcp enable NAME").
type Undo int

// Who reads it.
const (
	InTUI Undo = iota
	InCLI
)

// CannotRun words one standing reason a server may not run (a blocker of
// model.Server.Blockers, or of the engine's snapshot, which adds a command
// that cannot be found): one clause, lowercase, without a full stop, and
// in brackets how it is undone where the person can undo it. It is the
// one home of these words: the TUI's detail view (Why) and its history
// (Move), its disabled actions, mcp get, auth and the CLI's one-line
// reasons all say a blocker with it. server is the server's name, for the
// command line's command (quoted for a shell: a repository names its
// servers).
func CannotRun(b model.Reason, server string, u Undo) string {
	cli := func(step string) string { return " (mcpdeck mcp " + step + " " + textsafe.QuoteArg(server) + ")" }
	switch b.Kind {
	case model.ReasonBlockedByPolicy:
		if b.Rule != "" {
			return "blocked by policy rule " + b.Rule
		}
		return "blocked by managed policy"
	case model.ReasonDisabledByYou:
		if u == InCLI {
			return "disabled by you" + cli("enable")
		}
		return "disabled by you (enable it to connect)"
	case model.ReasonAwaitingApproval:
		what := "awaiting your approval"
		why := "this server comes from the project's .mcp.json"
		if b.Changed {
			what, why = "awaiting your approval again", "the definition changed since you approved it"
		}
		if u == InCLI {
			return what + cli("approve")
		}
		return what + " (" + why + ")"
	case model.ReasonRejectedByYou:
		if u == InCLI {
			return "rejected by you" + cli("approve")
		}
		return "rejected by you"
	case model.ReasonConfigProblem:
		if b.Problem != nil {
			return b.Problem.Error()
		}
		return "its definition has problems"
	case model.ReasonCommandNotFound:
		if b.Missing {
			return fmt.Sprintf("command %s does not exist", b.Command)
		}
		return fmt.Sprintf("command %s not found on PATH", b.Command)
	default: // not a blocker's kind: its error, else its name
	}
	if b.Error != "" {
		return b.Error
	}
	return string(b.Kind)
}
