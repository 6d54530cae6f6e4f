package clisession

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/lock"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/transports"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliprompt"
)

// errEngElicitHeadless is the answer to a server's elicitation when no
// person can answer it and --elicit was not given.
var errEngElicitHeadless = errors.New("elicitation needs a terminal, the TUI or --elicit accept-defaults|decline|cancel")

// EngineFlags is what an engine-backed command needs from the global flags.
type EngineFlags struct {
	Globals *clicore.Globals
	// Asked records elicitations refused for want of --elicit, so a failed
	// call can say why.
	Asked ElicitLog
	// declined is set when --elicit accept-defaults had to decline (a
	// required field without a default): the command then fails, since the
	// person asked to accept, not to decline.
	declined atomic.Bool
	// factory, when set, replaces the transports factory (tests).
	factory transports.Factory
	// InlineAuth lets a one-shot command (call, tools...) run the sign-in
	// flow itself on 401 or step-up; the `mcp list` health check only
	// reports "needs auth".
	InlineAuth bool
	// printed and below count the servers' log messages PrintLog printed
	// and those it left out for being below --log-level (LogsSeen).
	printed, below atomic.Int64
	// askMu keeps two requests asked at the terminal from interleaving.
	askMu sync.Mutex
}

func NewEngineFlags(g *clicore.Globals) *EngineFlags { return &EngineFlags{Globals: g} }

// NewEngineFlagsInline is NewEngineFlags for commands that may sign in on demand.
func NewEngineFlagsInline(g *clicore.Globals) *EngineFlags {
	return &EngineFlags{Globals: g, InlineAuth: true}
}

// ElicitLog remembers refused elicitation and declined sampling
// requests, so a failed request can say why. Only the first of each is
// kept: a server sending thousands must not grow it.
type ElicitLog struct {
	mu      sync.Mutex
	reqs    []engine.ElicitRequest
	samples []engine.SampleRequest
}

func (l *ElicitLog) addSample(r engine.SampleRequest) {
	lock.With(&l.mu, func() {
		if len(l.samples) == 0 {
			l.samples = append(l.samples, r)
		}
	})
}

// sampleDeclined words the first declined sampling request, "" for none.
func (l *ElicitLog) sampleDeclined() string {
	var samples []engine.SampleRequest
	lock.With(&l.mu, func() { samples = l.samples })
	if len(samples) == 0 {
		return ""
	}
	r := samples[0]
	what := ""
	if r.Request != "" {
		what = ", for " + r.Request
	}
	return textsafe.SanitizeLine(fmt.Sprintf("server %s asked for a model's reply (%q%s), and mcpdeck declined: "+
		"pass --sampling-command CMD, or set \"sampling\": {\"command\": …} for it in your user config", r.Server, r.FirstLine(), what))
}

func (l *ElicitLog) add(r engine.ElicitRequest) {
	lock.With(&l.mu, func() {
		if len(l.reqs) == 0 {
			l.reqs = append(l.reqs, r)
		}
	})
}

// Explain returns an error naming the first refused elicitation or
// declined sampling request, or nil.
func (l *ElicitLog) Explain() error {
	if s := l.sampleDeclined(); s != "" {
		return errors.New(s)
	}
	var reqs []engine.ElicitRequest
	lock.With(&l.mu, func() { reqs = l.reqs })
	if len(reqs) == 0 {
		return nil
	}
	r := reqs[0]
	what := r.Message
	if r.Mode == "url" {
		what = r.URL
	}
	if r.Request != "" {
		what += ", for " + r.Request
	}
	return fmt.Errorf("server %s asked for input (%s), but %w", r.Server, textsafe.SanitizeLine(what), errEngElicitHeadless)
}

// EngineOptions builds the engine the CLI runs on: the TUI's engine options
// (configuration, cache dir and whatever else is wired there, such as auth)
// without config watching, with the --elicit policy or a refusal that
// explains itself.
func (f *EngineFlags) EngineOptions() (engine.Options, error) {
	o, err := TUIEngineOptions(f.Globals)
	if err != nil {
		return engine.Options{}, err
	}
	o.Watch = false
	o.Auth = NewOAuthManager(o.Load, f.Globals.Stderr, f.InlineAuth)
	o.OnLog = f.PrintLog
	o.Sample = f.sampleHeadless
	if f.factory != nil {
		o.Factory = f.factory
	}
	if f.Globals.Elicit != "" {
		pol, err := engine.ElicitPolicy(f.Globals.Elicit)
		if err != nil {
			return engine.Options{}, clierr.Usagef("%v", err)
		}
		o.Elicit = pol
		if f.Globals.Elicit == clicore.ElicitAcceptDefaults {
			o.Elicit = f.sayWhyDeclined(pol)
		}
		return o, nil
	}
	if cliprompt.OnTerminal(f.Globals) {
		o.Elicit = f.elicitAtTerminal // a person is there to answer, as mcp approve asks
		return o, nil
	}
	o.Elicit = func(_ context.Context, req engine.ElicitRequest) (engine.ElicitResponse, error) {
		f.Asked.add(req)
		return engine.ElicitResponse{}, fmt.Errorf("server %s: %w", req.Server, errEngElicitHeadless)
	}
	return o, nil
}

// sayWhyDeclined wraps the accept-defaults policy: when it cannot accept,
// the reason (which fields have no default, a URL to open) goes to stderr,
// since the server's own answer to a decline rarely says why.
func (f *EngineFlags) sayWhyDeclined(pol engine.ElicitFunc) engine.ElicitFunc {
	return func(ctx context.Context, req engine.ElicitRequest) (engine.ElicitResponse, error) {
		resp, err := pol(ctx, req)
		if err == nil && resp.Action != engine.ElicitAccept && resp.Reason != "" {
			what := ""
			if req.Request != "" {
				what = " (for " + req.Request + ")"
			}
			fmt.Fprintln(f.Globals.Stderr, textsafe.SanitizeLine("mcpdeck: declined"+what+": "+resp.Reason))
			f.declined.Store(true)
		}
		return resp, err
	}
}

// PrintLog prints a server's log message on stderr, "SERVER level: text",
// when it is at or above --log-level.
func (f *EngineFlags) PrintLog(server string, l engine.LogEntry) {
	want := engine.LogLevelRank(f.Globals.LogLevel)
	if want < 0 || engine.LogLevelRank(l.Level) < want {
		f.below.Add(1)
		return // "off", or below the level
	}
	f.printed.Add(1)
	text := l.Data
	if l.Logger != "" {
		text = l.Logger + ": " + text
	}
	fmt.Fprintln(f.Globals.Stderr, textsafe.SanitizeLine(server+" "+l.Level+": "+text))
}

// LogsSeen is how many log messages servers sent so far: printed, and
// left out for being below --log-level.
func (f *EngineFlags) LogsSeen() (printed, below int) {
	return int(f.printed.Load()), int(f.below.Load())
}

// sampleHeadless answers a sampling request without a person: a command the
// person chose (--sampling-command, or the server's "sampling" setting in
// their user config) replies; otherwise --sampling decline declines. The
// decline is explained by the failed request's error, or by a note when the
// server carried on without the reply.
func (f *EngineFlags) sampleHeadless(_ context.Context, r engine.SampleRequest) (engine.SampleResponse, error) {
	if r.Command != "" {
		return engine.SampleResponse{Choice: engine.SampleOnce}, nil
	}
	f.Asked.addSample(r)
	return engine.SampleResponse{Choice: engine.SampleDecline}, nil
}
