package doctor

import (
	"slices"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// serverFix is what to do about a server that failed: for what stands in
// its way (its command, its definition), else for how it failed.
func serverFix(s *engine.ServerSnapshot) string {
	for _, b := range slices.Concat(s.Blockers, []model.Reason{s.Reason}) {
		switch b.Kind {
		case model.ReasonCommandNotFound:
			if b.Missing {
				return "correct \"command\" in " + s.Source + ": the path it names does not exist"
			}
			return "install " + b.Command + ", or correct \"command\" in " + s.Source
		case model.ReasonConfigProblem:
			if b.Problem != nil && b.Problem.Var != "" {
				return status.SetVariable(b.Problem.Var)
			}
			return "correct the definition in " + s.Source + " where the problem says"
		default:
		}
	}
	switch s.Reason.Kind {
	case model.ReasonTimedOut:
		return "check that it starts when run by hand, or give it longer with MCP_TIMEOUT (milliseconds, default 30000)"
	case model.ReasonTooLarge:
		return "it sends messages over mcpdeck's limit: ask its maintainer to page its lists"
	default:
	}
	if s.Transport.Info().Remote {
		return "check that the server is running and that " + s.Target + " is its URL, then run mcpdeck doctor again"
	}
	return "run its command by hand to see what it prints: " + s.Target
}
