package clisession

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/transports"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/clinames"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// errEngNotNeeded is what engOnlyFactory answers for servers the running command
// does not use: they are never spawned or contacted.
var errEngNotNeeded = errors.New("not connected by this command")

// engOnlyFactory opens only the servers a command needs (`call s ...` waits for
// s alone and never starts the others). The engine still loads the whole
// configuration, so roots, permissions, approval and auth behave exactly as
// in the TUI.
type engOnlyFactory struct {
	inner transports.Factory
	only  map[string]bool
}

// Open implements transports.Factory.
func (f engOnlyFactory) Open(ctx context.Context, name string, cfg model.ServerConfig, opts transports.Options) (*transports.Conn, error) {
	if !f.only[name] {
		return nil, fmt.Errorf("server %s: %w", name, errEngNotNeeded)
	}
	return f.inner.Open(ctx, name, cfg, opts)
}

// Session is an engine started for one CLI command.
type Session struct {
	Eng     *engine.Engine
	Updates <-chan engine.Snapshot
	Last    engine.Snapshot
	// Progress, when set, is told after every snapshot and every tick how
	// many of the awaited servers have settled and which are still starting.
	Progress func(done, total int, waiting []string)
	Tick     <-chan time.Time
	// stderr is where Close tells of declined requests (printFloods).
	stderr io.Writer
}

// StartSession starts an engine on the configuration the global flags name.
// With names, only those servers are connected; an unknown name is an error
// that lists the configured ones.
func StartSession(ctx context.Context, f *EngineFlags, names ...string) (*Session, error) {
	eo, err := f.EngineOptions()
	if err != nil {
		return nil, err
	}
	if len(names) > 0 {
		OnlyServers(&eo, names)
	}
	eng, err := engine.New(eo)
	if err != nil {
		return nil, err
	}
	s := &Session{Eng: eng, Updates: eng.Updates(), stderr: f.Globals.Stderr}
	if err := eng.Start(ctx); err != nil {
		_ = eng.Close()
		return nil, err
	}
	s.Last = eng.Snapshot()
	for _, n := range names {
		if _, ok := s.Server(n); !ok {
			_ = eng.Close()
			return nil, engUnknownServer(n, s.Last)
		}
	}
	return s, nil
}

// OnlyServers makes eo open only the servers named (engOnlyFactory) and
// read only their secrets: the others stay in the snapshot, not started.
func OnlyServers(eo *engine.Options, names []string) {
	only := map[string]bool{}
	for _, n := range names {
		only[n] = true
	}
	eo.Factory = engOnlyFactory{inner: eo.Factory, only: only}
	if eo.Load.LookupSecret != nil {
		eo.Load.LookupSecret = clicore.SecretsOnlyOf(eo.Load.LookupSecret, names)
	}
}

// Close shuts the engine down (every server, within about a second) and
// tells of each server's requests it declined meanwhile (printFloods).
func (s *Session) Close() error {
	err := s.Eng.Close()
	printFloods(s.stderr, s.Eng.Snapshot())
	return err
}

// printFloods tells of each server's latest burst of requests the engine
// declined because engine.MaxPendingAsks already waited for an answer: the
// CLI answers at once, so such a server sent a great many at once, or
// kept a sampling command busy. The burst is on the snapshot once the
// engine closed, with its final counts.
func printFloods(w io.Writer, snap engine.Snapshot) {
	if w == nil {
		return
	}
	for i := range snap.Servers {
		if n := status.Flood(&snap.Servers[i]); n != "" {
			fmt.Fprintln(w, "mcpdeck: "+n)
		}
	}
}

func (s *Session) Server(name string) (engine.ServerSnapshot, bool) {
	for _, srv := range s.Last.Servers {
		if srv.Name == name {
			return srv, true
		}
	}
	return engine.ServerSnapshot{}, false
}

// next waits for the next snapshot (or ctx).
func (s *Session) next(ctx context.Context) error {
	select {
	case snap, ok := <-s.Updates:
		if !ok {
			return engine.ErrClosed
		}
		if snap.Seq >= s.Last.Seq { // never step back to an older snapshot
			s.Last = snap
		}
		return nil
	case <-s.Tick: // redraw the progress line (nil: never)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// WaitSettled waits until every named server (all servers when names is
// empty) has an outcome, calling report once per server as its outcome
// arrives, in arrival order.
func (s *Session) WaitSettled(ctx context.Context, names []string, report func(engine.ServerSnapshot)) error {
	return s.waitSettledSince(ctx, names, time.Time{}, report)
}

// waitSettledSince is WaitSettled counting only outcomes reached by a state
// change at or after since (the moment a reconnect was asked for).
func (s *Session) waitSettledSince(ctx context.Context, names []string, since time.Time, report func(engine.ServerSnapshot)) error {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	done := map[string]bool{}
	for {
		var waiting []string
		for _, srv := range s.Last.Servers {
			if len(want) > 0 && !want[srv.Name] {
				continue
			}
			if done[srv.Name] {
				continue
			}
			if OutcomeOf(srv) == status.OutcomePending || !changedSince(srv, since) {
				waiting = append(waiting, srv.Name)
				continue
			}
			done[srv.Name] = true
			if report != nil {
				report(srv)
			}
		}
		if len(waiting) == 0 {
			return nil
		}
		if s.Progress != nil {
			s.Progress(len(done), len(done)+len(waiting), waiting)
		}
		if err := s.next(ctx); err != nil {
			return err
		}
	}
}

// changedSince reports whether the server's state changed at or after t.
func changedSince(srv engine.ServerSnapshot, t time.Time) bool {
	if t.IsZero() {
		return true
	}
	n := len(srv.History)
	return n > 0 && !srv.History[n-1].At.Before(t)
}

// Ready waits for one server and returns it when connected; otherwise an
// error saying what state it is in and why.
func (s *Session) Ready(ctx context.Context, name string) (engine.ServerSnapshot, error) {
	if err := s.WaitSettled(ctx, []string{name}, nil); err != nil {
		return engine.ServerSnapshot{}, err
	}
	srv, _ := s.Server(name)
	if srv.State == model.StateConnected {
		return srv, nil
	}
	return srv, &engServerError{srv: srv}
}

// engServerError says why a server a command needs is not connected.
type engServerError struct{ srv engine.ServerSnapshot }

func (e *engServerError) Error() string {
	name := e.srv.Name
	var msg string
	switch o := OutcomeOf(e.srv); o {
	case status.OutcomeFailed:
		msg = "server " + name + " failed to connect"
	case status.OutcomeNeedsAuth:
		msg = "server " + name + " needs authentication (run: mcpdeck auth " + textsafe.QuoteArg(name) + ")"
	case status.OutcomeDisabled: // its reason says how: by you, rejected, blocked
		return "server " + name + " is " + status.Off(&e.srv)
	case status.OutcomeApproval:
		msg = "server " + name + " is awaiting approval (run: mcpdeck mcp approve " + textsafe.QuoteArg(name) + ", or approve it in the TUI)"
	default:
		msg = "server " + name + " is " + o.Word()
	}
	if r := Reason(e.srv); r != "" && !strings.Contains(msg, "(") {
		msg += ": " + r
	}
	return msg
}

// engUnknownServer names the configured servers, and the one a typo most
// likely meant, so it is easy to fix.
func engUnknownServer(name string, snap engine.Snapshot) error {
	var names []string
	for _, srv := range snap.Servers {
		names = append(names, srv.Name)
	}
	return UnknownServer(name, names)
}

// UnknownServer is the one sentence for a server name nothing configures,
// in every command: `no server named "calx" (configured: calc, notes);
// did you mean "calc"?` (engine.ErrUnknownServer).
func UnknownServer(name string, configured []string) error {
	names := slices.Sorted(slices.Values(configured))
	if len(names) == 0 {
		return fmt.Errorf("%w %q: no MCP servers are configured (see mcpdeck mcp add, or --mcp-config)", engine.ErrUnknownServer, name)
	}
	err := fmt.Errorf("%w %q (configured: %s)", engine.ErrUnknownServer, name, strings.Join(names, ", "))
	return clinames.WithDidYouMean(err, name, names)
}

// WithServer starts an engine that connects only server, waits until it
// is connected (or says why it is not), then runs fn.
func WithServer(ctx context.Context, f *EngineFlags, server string, fn func(context.Context, *Session) error) error {
	s, err := StartSession(ctx, f, server)
	if err != nil {
		return err
	}
	defer s.Close()
	if _, err := s.Ready(ctx, server); err != nil {
		return err
	}
	if err := fn(ctx, s); err != nil {
		return err
	}
	if f.declined.Load() { // the reason is already on stderr
		return clierr.SilentError{}
	}
	if note := f.Asked.sampleDeclined(); note != "" {
		fmt.Fprintln(f.Globals.Stderr, "mcpdeck: note: "+note)
	}
	return nil
}
