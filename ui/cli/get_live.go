package cli

import (
	"context"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// liveStatus connects the one server `mcp get` shows, as `claude mcp get`
// does, and returns its settled snapshot. A server that may not run
// (awaiting approval, disabled, blocked, broken) is never started: ok is
// false and the "Runs" line already says why.
func liveStatus(ctx context.Context, g *globalOpts, s model.Server) (engine.ServerSnapshot, bool, error) {
	if !s.Runnable() {
		return engine.ServerSnapshot{}, false, nil
	}
	sess, err := startEngSession(ctx, newEngFlags(g), s.Name)
	if err != nil {
		return engine.ServerSnapshot{}, false, err
	}
	defer sess.Close()
	stop := showProgress(g, sess)
	err = sess.waitSettled(ctx, []string{s.Name}, nil)
	stop()
	if err != nil {
		return engine.ServerSnapshot{}, false, err
	}
	srv, ok := sess.server(s.Name)
	return srv, ok, nil
}

// showProgress draws the progress line on a terminal's stderr while sess
// waits for servers; the returned func erases it.
func showProgress(g *globalOpts, sess *engSession) func() {
	prog := newListProgress(g, time.Now())
	if prog == nil {
		return func() {}
	}
	t := time.NewTicker(listProgressTick)
	sess.tick = t.C
	sess.progress = func(done, total int, waiting []string) { prog.draw(time.Now(), done, total, waiting) }
	return func() {
		t.Stop()
		sess.tick, sess.progress = nil, nil
		prog.clear()
	}
}

// liveJSON is the live part of `mcp get --json`.
type liveJSON struct {
	State           string                `json:"state"`
	Error           string                `json:"error,omitempty"`
	ServerInfo      engine.Implementation `json:"serverInfo,omitzero"`
	ProtocolVersion string                `json:"negotiatedProtocol,omitempty"`
	Tools           int                   `json:"tools"`
	Resources       int                   `json:"resources"`
	Templates       int                   `json:"resourceTemplates"`
	Prompts         int                   `json:"prompts"`
}

func newLiveJSON(srv engine.ServerSnapshot) *liveJSON {
	return &liveJSON{
		State: engOutcomeOf(srv).Word(), Error: engReason(srv), ServerInfo: srv.ServerInfo, ProtocolVersion: srv.ProtocolVersion,
		Tools: len(srv.Tools), Resources: len(srv.Resources), Templates: len(srv.Templates), Prompts: len(srv.Prompts),
	}
}
