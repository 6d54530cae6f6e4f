package serve

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// stateSentence says what state a server is in and why, in ui/status's
// words: "server github is connected (12 tools · 0 resources · 0 prompts)",
// "server api needs auth: The server needs you to sign in (sign in with:
// mcpdeck auth api)".
func stateSentence(s *engine.ServerSnapshot) string {
	return stateSentenceAt(s, time.Now())
}

func stateSentenceAt(s *engine.ServerSnapshot, now time.Time) string {
	k := status.KindOf(s)
	if k == status.Connected {
		return "server " + s.Name + " is connected (" + status.Counts(s) + ")"
	}
	msg := "server " + s.Name + " is " + status.WordNow(s, now)
	if r := status.Reason(s); r != "" {
		msg += ": " + r
	}
	switch k {
	case status.NeedsAuth:
		msg += " (sign in with: mcpdeck auth " + s.Name + ")"
	case status.Awaiting:
		msg += " (approve it with: mcpdeck mcp approve " + s.Name + ")"
	case status.Connected, status.Pending, status.Failed, status.Disabled, status.Blocked:
	}
	return model.SanitizeLine(msg)
}

// server returns the named server from the last snapshot.
func (g *Gateway) server(name string) (engine.ServerSnapshot, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, s := range g.snap.Servers {
		if s.Name == name {
			return s, true
		}
	}
	return engine.ServerSnapshot{}, false
}

// unavailable is the error for a call to a server that is not connected:
// its state in words. A server that failed or needs sign-in is asked to
// connect again (the person may have fixed it, or signed in with
// `mcpdeck auth` meanwhile), so the agent's next try may succeed.
func (g *Gateway) unavailable(ctx context.Context, name string) error {
	s, ok := g.server(name)
	if !ok {
		return fmt.Errorf("%w: %s", engine.ErrUnknownServer, name)
	}
	msg := stateSentence(&s)
	switch status.KindOf(&s) {
	case status.Failed, status.NeedsAuth:
		if err := g.eng.Reconnect(ctx, name); err == nil {
			msg += "; mcpdeck is connecting it again, try again shortly"
		}
	case status.Connected, status.Pending, status.Disabled, status.Blocked, status.Awaiting:
	}
	return &unavailableError{msg: msg}
}

// unavailableError is a call refused because its server is not connected.
type unavailableError struct{ msg string }

func (e *unavailableError) Error() string { return e.msg }
