package mcpcmd

import (
	"context"
	"errors"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
)

// liveStatus connects the one server `mcp get` shows, as `claude mcp get`
// does, and returns its settled snapshot. A server that may not run
// (awaiting approval, disabled, blocked, broken) is never started: ok is
// false and the "Runs" line already says why.
func liveStatus(ctx context.Context, g *clicore.Globals, s model.Server) (engine.ServerSnapshot, bool, error) {
	if !s.Runnable() {
		return engine.ServerSnapshot{}, false, nil
	}
	sess, err := clisession.StartSession(ctx, clisession.NewEngineFlags(g), s.Name)
	if err != nil {
		return engine.ServerSnapshot{}, false, err
	}
	defer sess.Close()
	stop := showProgress(g, sess)
	err = sess.WaitSettled(ctx, []string{s.Name}, nil)
	stop()
	if err != nil {
		return engine.ServerSnapshot{}, false, err
	}
	srv, ok := sess.Server(s.Name)
	return srv, ok, nil
}

// editorStatus connects the server of an editor named name, which no
// file defines (the engine finds it through the editor's lock file), and
// returns its settled snapshot; ok is false when there is none.
func editorStatus(ctx context.Context, g *clicore.Globals, name string) (engine.ServerSnapshot, bool, error) {
	sess, err := clisession.StartSession(ctx, clisession.NewEngineFlags(g), name)
	if errors.Is(err, engine.ErrUnknownServer) {
		return engine.ServerSnapshot{}, false, nil
	}
	if err != nil {
		return engine.ServerSnapshot{}, false, err
	}
	defer sess.Close()
	stop := showProgress(g, sess)
	err = sess.WaitSettled(ctx, []string{name}, nil)
	stop()
	if err != nil {
		return engine.ServerSnapshot{}, false, err
	}
	srv, ok := sess.Server(name)
	return srv, ok && srv.Editor != nil, nil
}

// editorServer is the definition `mcp get` shows of an editor's server:
// the snapshot's, its token already masked.
func editorServer(srv engine.ServerSnapshot) model.Server {
	return model.Server{
		Name: srv.Name, Scope: srv.Scope, Source: srv.Source, Raw: srv.Config, Config: srv.Config, Hash: srv.Hash,
		Approval: srv.Approval, Policy: srv.Policy, Enabled: srv.Enabled, Editor: srv.Editor,
	}
}

// showProgress draws the progress line on a terminal's stderr while sess
// waits for servers; the returned func erases it.
func showProgress(g *clicore.Globals, sess *clisession.Session) func() {
	prog := cliout.NewProgressLine(g, time.Now())
	if prog == nil {
		return func() {}
	}
	t := time.NewTicker(cliout.ProgressTick)
	sess.Tick = t.C
	sess.Progress = func(done, total int, waiting []string) {
		prog.Draw(time.Now(), listProgressText(done, total, waiting))
	}
	return func() {
		t.Stop()
		sess.Tick, sess.Progress = nil, nil
		prog.Clear()
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
		State: clisession.OutcomeOf(srv).Word(), Error: clisession.Reason(srv), ServerInfo: srv.ServerInfo, ProtocolVersion: srv.ProtocolVersion,
		Tools: len(srv.Tools), Resources: len(srv.Resources), Templates: len(srv.Templates), Prompts: len(srv.Prompts),
	}
}
