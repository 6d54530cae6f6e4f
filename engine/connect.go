package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/launch"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/transports"
)

// attemptLocked launches the connection attempt of generation gen.
func (r *runner) attemptLocked(en *entry, gen uint64) {
	e := r.e
	if e.closed {
		return
	}
	ctx, cancel := context.WithCancel(e.ctx)
	en.conn.cancel = cancel
	srv, mask := en.srv, en.mask
	policy := &en.policy
	e.wg.Go(func() { r.connect(ctx, srv, mask, policy, gen) })
}

// connect opens, initializes and lists one server, then reports back.
func (r *runner) connect(ctx context.Context, srv model.Server, mask *textsafe.Masker, policy *atomic.Pointer[model.Policy], gen uint64) {
	conn, l, err := r.openAndList(ctx, srv, mask, policy)
	kept := false
	r.e.ifEntry(srv.Name, func(en *entry) { kept = r.connected(ctx, en, gen, conn, l, err) })
	if !kept && conn != nil {
		r.goClose(conn, mask)
	}
	if kept {
		r.e.memory.flush(srv.Name)
	}
}

// connected reports attempt gen's outcome to Step and reports whether the
// connection was kept. Callers hold e.mu.
func (r *runner) connected(ctx context.Context, en *entry, gen uint64, conn session, l lists, err error) (kept bool) {
	e := r.e
	if err != nil {
		f := r.describe(en, err)
		if gen == en.st.Gen() {
			e.log.Info("server failed", "server", en.srv.Name, "err", f.Detail, "class", f.Class)
			if tail := failedStderr(conn, err); len(tail) > 0 {
				en.conn.stderr = en.mask.MaskLines(tail) // often the only clue why it never connected
			}
		}
		if en.srv.Editor != nil {
			e.ide.Wake() // the editor may have quit without removing its lock file
		}
		r.feed(en, lifecycle.AttemptFailed{At: now(), Gen: gen, Fail: f, Jitter: e.rnd()}, nil)
		return false
	}
	e.lists.mark(&l)
	problem, detail := e.lists.problems(en, l)
	r.feed(en, lifecycle.AttemptSucceeded{At: now(), Gen: gen, Problem: problem, Detail: detail}, func() {
		kept = true
		r.adopt(ctx, en, gen, conn, l)
	})
	return kept
}

// openAndList opens one connection within MCP_TIMEOUT and lists what it
// offers within another MCP_TIMEOUT, so 10 000 tools on a slow link do not
// fail the connect. policy is the server's managed policy as reloads
// change it.
func (r *runner) openAndList(ctx context.Context, srv model.Server, mask *textsafe.Masker, policy *atomic.Pointer[model.Policy]) (session, lists, error) {
	e := r.e
	opts := r.connOptions(srv, mask, policy)
	if srv.Config.EffectiveType().Info().Remote {
		select {
		case r.remote <- struct{}{}:
		case <-ctx.Done():
			return nil, lists{}, ctx.Err()
		}
		defer func() { <-r.remote }()
	} else {
		place, err := r.local.Acquire(ctx)
		if err != nil {
			return nil, lists{}, err
		}
		defer place.Release()
		opts.Started = place.Started // the gate watches its process's CPU use
	}
	cctx, cancel := context.WithTimeout(ctx, e.set.connectTimeout)
	opts.ProtocolVersion = r.protocols.Remembered(srv)
	conn, err := e.open(cctx, srv.Name, srv.Config, opts)
	timedOut := cctx.Err() == context.DeadlineExceeded && ctx.Err() == nil
	cancel()
	var l lists
	if err == nil {
		if init := conn.Init(); init != nil {
			r.protocols.Remember(srv, opts.ProtocolVersion, init.ProtocolVersion)
		}
		lctx, lcancel := context.WithTimeout(ctx, e.set.connectTimeout)
		l = e.lists.fetchAll(lctx, srv, conn)
		if l.fatal != nil {
			err = l.fatal
			timedOut = lctx.Err() == context.DeadlineExceeded && ctx.Err() == nil
		}
		lcancel()
	}
	if err != nil && timedOut {
		err = fmt.Errorf("%w: no answer within %s (MCP_TIMEOUT): %w", ErrConnectTimeout, e.set.connectTimeout, err)
	}
	return conn, l, err
}

// adopt makes conn en's connection: its lists and server info are shown
// and its end is watched. Callers hold e.mu.
func (r *runner) adopt(ctx context.Context, en *entry, gen uint64, conn session, l lists) {
	e := r.e
	en.conn.conn = conn
	e.lists.apply(en, l)
	if init := conn.Init(); init != nil {
		in := init.Instructions // masked as far as capText reads, and a secret further
		en.conn.info = sessionInfo{
			server:        Implementation{Name: sanitize(init.ServerInfo.Name), Version: sanitize(init.ServerInfo.Version)},
			protocol:      init.ProtocolVersion,
			instructions:  capText(en.mask.Mask(in[:min(len(in), 4*maxTextLen+en.mask.Longest())])),
			subscriptions: canSubscribe(init),
		}
	}
	en.conn.stderr = en.mask.MaskLines(conn.StderrTail(stderrTailLines))
	name, mask := en.srv.Name, en.mask
	e.wg.Go(func() { r.monitor(ctx, name, mask, gen, conn) })
	e.subs.renewLocked(en, gen, conn)
	if level := en.logs.level; level != "" { // a new session starts at the server's default level
		e.wg.Go(func() { _ = e.SetLogLevel(e.ctx, name, level) })
	}
}

// ErrConnectTimeout marks a connect that took longer than MCP_TIMEOUT.
var ErrConnectTimeout = errors.New("connect timed out")

// failedStderr is the stderr tail of an attempt that failed: the
// transport's, kept with its error when the process ended before
// connecting, else the half-open connection's.
func failedStderr(conn session, err error) []string {
	var te *transports.Error
	if errors.As(err, &te) && len(te.StderrTail) > 0 {
		return te.StderrTail
	}
	if conn != nil {
		return conn.StderrTail(stderrTailLines)
	}
	return nil
}

// connOptions builds the per-server callbacks handed to the transport:
// each part answers what is its business.
func (r *runner) connOptions(srv model.Server, mask *textsafe.Masker, policy *atomic.Pointer[model.Policy]) connOptions {
	e := r.e
	name := srv.Name
	o := connOptions{
		Elicit: func(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
			return e.asks.elicit(ctx, name, req)
		},
		Roots: func(ctx context.Context) ([]mcp.Root, error) {
			return r.answerRoots(ctx, name)
		},
		LogDir:         filepath.Join(e.opts.CacheDir, "logs"),
		ClientVersion:  e.opts.ClientVersion,
		Builtins:       e.opts.Builtins,
		MaxMessageSize: e.opts.MaxMessageSize,
	}
	if e.opts.Sample != nil || e.opts.SamplingCommand != "" {
		o.Sample = func(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return e.asks.sample(ctx, name, req)
		}
	}
	o.OnNotification = func(n mcp.JSONRPCNotification) { e.notes.on(name, n) }
	o.OnFrame = func(f Frame) { e.logs.onFrame(name, f) }
	o.OnRefuse = func(r Refusal) { e.logs.onRefuse(name, r) }
	o.Mask = mask
	o.Launcher = launch.For(srv)
	e.locked(func() {
		if e.res != nil {
			o.Launcher.Project = e.res.ProjectRoot // a sandboxed server reads it
		}
	})
	if e.opts.Auth != nil && srv.Config.EffectiveType().Info().Headers {
		o.HTTPClient = e.opts.Auth.HTTPClient(srv)
		if trusted(srv) && srv.Config.HeadersHelper != "" {
			auth := e.opts.Auth
			o.HeaderFunc = func(ctx context.Context) (map[string]string, error) {
				now := srv
				if p := policy.Load(); p != nil {
					now.ManagedPolicy = *p // the policy in force now, not at connect
				}
				return auth.Headers(ctx, now)
			}
		}
	}
	return o
}

// answerRoots answers server's roots/list: Options.Roots, given the
// project's root, or that root.
func (r *runner) answerRoots(ctx context.Context, server string) ([]mcp.Root, error) {
	in, settle := roundOf(ctx).Claim(mcp.MethodListRoots, nil)
	defer settle()
	project, err := r.roots(ctx)
	if err != nil || r.e.opts.Roots == nil {
		return project, err
	}
	req := RootsRequest{Server: server, Project: project, Input: in}
	if ic := inputCallFrom(ctx); ic != nil {
		req.Request = ic.what
	}
	return r.e.opts.Roots(ctx, req)
}

// roots answers roots/list with the project root.
func (r *runner) roots(context.Context) ([]mcp.Root, error) {
	e := r.e
	root := ""
	e.locked(func() {
		if e.res != nil {
			root = e.res.ProjectRoot
		}
	})
	if root == "" {
		root = e.opts.Load.Cwd
	}
	if root == "" {
		return []mcp.Root{}, nil
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("project root: %w", err)
	}
	return []mcp.Root{{URI: platform.FileURI(abs), Name: filepath.Base(abs)}}, nil
}
