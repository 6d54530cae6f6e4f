package serve

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// stateSentence says what state a server is in and why, in ui/status's
// words, with what to run where there is something to run: "server
// github is connected (12 tools · 0 resources · 0 prompts)", "server fa is
// not connected (attempt 1/5 · retry in 7s): the server process exited
// with code 3", "server api needs authentication (sign in with: mcpdeck
// auth api)".
func stateSentence(s *engine.ServerSnapshot) string {
	return stateSentenceAt(s, time.Now())
}

func stateSentenceAt(s *engine.ServerSnapshot, now time.Time) string {
	name := "server " + s.Name
	failure, _, _ := strings.Cut(status.Failure(s), "\n")
	var msg string
	switch status.KindOf(s) {
	case status.Connected:
		return textsafe.SanitizeLine(name + " is connected (" + status.Counts(s) + ")")
	case status.Pending:
		msg = name + " is not connected (" + status.Progress(s, now, status.Hints{}) + ")" + colon(failure)
	case status.Failed:
		msg = name + " failed" + colon(failure)
	case status.NeedsAuth:
		msg = name + " needs authentication (sign in with: mcpdeck auth " + textsafe.QuoteArg(s.Name) + ")"
	case status.Awaiting, status.Rejected:
		msg = name + " is " + status.Word(s) + " (approve it with: mcpdeck mcp approve " + textsafe.QuoteArg(s.Name) + ")"
	default: // disabled, blocked: its word and why
		msg = name + " is " + status.Word(s) + colon(status.Reason(s))
	}
	return textsafe.SanitizeLine(msg)
}

// colon is ": why" without a closing full stop, or "" for no why.
func colon(why string) string {
	why = strings.TrimSuffix(strings.TrimSpace(why), ".")
	if why == "" {
		return ""
	}
	return ": " + why
}

// unavailable is the error for a call to a server that is not connected:
// its state in words. A server that failed or needs sign-in is asked to
// connect again (the person may have fixed it, or signed in with
// `mcpdeck auth` meanwhile), so the agent's next try may succeed.
func (rs *routes) unavailable(ctx context.Context, name string) error {
	s, ok := rs.g.lists.server(name)
	if !ok {
		return fmt.Errorf("%w %q", engine.ErrUnknownServer, name)
	}
	msg := stateSentence(&s)
	if k := status.KindOf(&s); k == status.Failed || k == status.NeedsAuth {
		if err := rs.g.eng.Reconnect(ctx, name); err == nil {
			msg += "; mcpdeck is connecting it again, try again shortly"
		}
	}
	return &unavailableError{msg: msg}
}

// unavailableError is a call refused because its server is not connected.
type unavailableError struct{ msg string }

func (e *unavailableError) Error() string { return e.msg }
