package engine

import (
	"context"
	"errors"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
	"github.com/mcpdeck/mcpdeck/engine/localgate"
	"github.com/mcpdeck/mcpdeck/engine/versions"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// runner runs the reducer: it feeds lifecycle.Step the events of each
// server, performs the effects Step returns (connect, close, schedule or
// cancel a retry, mark needs-auth, refetch a list, publish) and watches
// each connection until it ends. It holds the goroutines, timers and
// connection generations, and decides nothing.
type runner struct {
	e         *Engine
	local     *localgate.Gate  // admits stdio and sdk connects
	remote    chan struct{}    // connection batch slots, network
	protocols *versions.Memory // negotiated versions, read once
}

func newRunner(e *Engine) *runner {
	return &runner{
		e:         e,
		local:     localgate.New(e.set.localBatch, localgate.TreeCPU),
		remote:    make(chan struct{}, e.set.remoteBatch),
		protocols: versions.New(e.opts.CacheDir, e.log),
	}
}

// connState is what the runner keeps per server: the attempt or
// connection under way, the scheduled retry, what the connection told of
// itself, the last stderr lines and the sign-in URL while the person signs
// in.
type connState struct {
	cancel  context.CancelFunc // ends the current attempt or connection
	conn    session
	timer   *time.Timer // scheduled retry
	info    sessionInfo
	stderr  []string // the stderr tail, masked
	authURL string   // the sign-in URL while Authenticate runs
}

// sessionInfo is what a connection's initialize told of the server.
type sessionInfo struct {
	server        Implementation
	protocol      string
	instructions  string // capped at 2048, masked
	subscriptions bool   // it offers resource subscriptions
}

// forget drops what the connection told of the server.
func (c *connState) forget() { c.info = sessionInfo{} }

// stopRetry stops the retry timer.
func (c *connState) stopRetry() {
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
}

// feed hands ev to lifecycle.Step, keeps the state it returns and carries
// out its effects in order, then publishes at most once. keep (may be nil)
// runs for EffAccept: it stores the connection the event reported. Callers
// hold e.mu.
func (r *runner) feed(en *entry, ev lifecycle.Event, keep func()) {
	from := en.st.Current()
	next, effs := lifecycle.Step(en.st, ev)
	en.st = next
	if en.st.Current() != from {
		r.e.log.Debug("server state", "server", en.srv.Name, "from", from, "to", en.st.Current())
	}
	publish := false
	for _, f := range effs {
		switch f.Kind {
		case lifecycle.EffAccept:
			if keep != nil {
				keep()
			}
		case lifecycle.EffPublish:
			publish = true
		default:
			r.perform(en, f)
		}
	}
	if publish {
		r.e.publishLocked()
	}
}

// feedNamed feeds ev to server's entry, if the engine is open and the
// server still there.
func (r *runner) feedNamed(server string, ev lifecycle.Event) {
	r.e.ifEntry(server, func(en *entry) { r.feed(en, ev, nil) })
}

// perform carries out one effect of Step for en. Callers hold e.mu.
func (r *runner) perform(en *entry, f lifecycle.Effect) {
	e := r.e
	switch f.Kind {
	case lifecycle.EffStart:
		r.attemptLocked(en, f.Gen)
	case lifecycle.EffStop:
		r.stopLocked(en, f.KeepStderr)
	case lifecycle.EffEndAttempt:
		if en.conn.cancel != nil {
			en.conn.cancel()
			en.conn.cancel = nil
		}
	case lifecycle.EffSchedule:
		name, gen := en.srv.Name, f.Gen
		en.conn.timer = time.AfterFunc(f.Delay, func() { r.feedNamed(name, lifecycle.RetryDue{At: now(), Gen: gen}) })
	case lifecycle.EffCancelRetry:
		en.conn.stopRetry()
	case lifecycle.EffMarkNeedsAuth:
		// The Authenticator's record is a file write: not under e.mu.
		if a := e.opts.Auth; a != nil {
			srv := en.srv
			e.wg.Go(func() { a.MarkNeedsAuth(srv) })
		}
	case lifecycle.EffRefetch:
		e.lists.refetchLocked(en, listKind(f.List))
	case lifecycle.EffRefused:
		e.log.Error("engine: refused state change", "server", en.srv.Name, "err", f.Text)
	case lifecycle.EffAccept, lifecycle.EffPublish:
	}
}

// describe turns err into what Step needs to know of it, its sentences
// redacted with en's secrets. Callers hold e.mu.
func (r *runner) describe(en *entry, err error) lifecycle.Failure {
	e := r.e
	cls, name := e.errs.classify(err)
	var limit time.Duration
	if errors.Is(err, ErrConnectTimeout) { // which limit ran out (ui/status says how to raise it)
		limit = e.set.connectTimeout
	}
	var exit *int
	if code, ok := e.errs.exitCode(err); ok {
		exit = &code
	}
	return lifecycle.Failure{Class: cls, ClassName: name, Text: e.errs.text(en, err), Detail: en.redact(err.Error()), ExitCode: exit, Limit: limit}
}

// limits are the rules Step applies to every server of this engine.
func (r *runner) limits() lifecycle.Limits {
	return lifecycle.Limits{Backoff: r.e.backoff, CrashWindow: crashWindow, CrashLoop: crashLoopLimit, TransientLimit: transientLimit}
}

// now is the time an event happens.
func now() lifecycle.At { return lifecycle.At{Now: time.Now()} }

// stopLocked ends whatever en runs: a scheduled retry, an attempt in
// flight, an open connection (closed in the background, its stderr tail
// kept first when asked).
func (r *runner) stopLocked(en *entry, keepStderr bool) {
	if c := en.conn.conn; c != nil && keepStderr {
		en.conn.stderr = en.mask.MaskLines(c.StderrTail(stderrTailLines))
	}
	if c := r.endLocked(en); c != nil {
		r.goClose(c, en.mask)
	}
	en.forget()
	r.e.toolsDirty = true
}

// endLocked stops en's retry, ends its attempt and takes its connection,
// which the caller closes.
func (r *runner) endLocked(en *entry) session {
	en.conn.stopRetry()
	if en.conn.cancel != nil {
		en.conn.cancel()
		en.conn.cancel = nil
	}
	c := en.conn.conn
	en.conn.conn = nil
	return c
}

// goClose closes a connection without holding up the caller; a failure
// is logged masked with mask, its server's.
func (r *runner) goClose(c session, mask *textsafe.Masker) {
	e := r.e
	e.wg.Go(func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(e.ctx), closeTimeout)
		defer cancel()
		if err := c.Close(ctx); err != nil {
			e.log.Debug("closing connection", "err", mask.Mask(err.Error()))
		}
	})
}
