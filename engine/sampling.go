package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine/samplereq"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// mcpdeck has no model of its own: a server's sampling/createMessage is
// answered by the person (who types the reply) or by a command they chose
// (samplereq.ByCommand), and only once they allowed it for that server. Their
// standing decision ("always", "never") lives in the project's private
// state (model.SamplingDecision), so nothing in a repository can allow it.

// SampleFunc asks the person about a sampling request (the TUI's prompt, or
// the CLI's fixed policy).
type SampleFunc func(ctx context.Context, req SampleRequest) (SampleResponse, error)

// The person's answers to a sampling request.
const (
	SampleOnce    = "once"    // reply this time
	SampleAlways  = "always"  // reply, and do not ask again for this server
	SampleDecline = "decline" // not this time
	SampleNever   = "never"   // decline, and do not ask again for this server
)

// ErrSamplingDeclined is the answer a server gets when its sampling request
// was declined.
var ErrSamplingDeclined = errors.New("the person declined this sampling request")

// SampleRequest is a server's sampling request as the person sees it: every
// text sanitized, images and audio as their size.
type SampleRequest struct {
	Server string `json:"server"`
	// Request is the call this is for, on a 2026-07-28 session ("tools/call
	// NAME"); "" for a request the server sent on its own.
	Request        string          `json:"request,omitempty"`
	Messages       []SampleMessage `json:"messages"`
	SystemPrompt   string          `json:"systemPrompt,omitempty"`
	Preferences    string          `json:"preferences,omitempty"` // model hints and priorities, one line
	MaxTokens      int             `json:"maxTokens"`
	Temperature    float64         `json:"temperature,omitempty"`
	StopSequences  []string        `json:"stopSequences,omitempty"`
	IncludeContext string          `json:"includeContext,omitempty"`
	Tools          []string        `json:"tools,omitempty"` // names of the tools offered to the model
	// Command is the command that will write the reply; "" means the person
	// types it.
	Command string `json:"command,omitempty"`
	// Allowed says the person already allowed sampling for this server
	// ("always"): only the reply is wanted.
	Allowed bool `json:"allowed,omitempty"`
	// Raw is the request's params as the server sent them: the command's stdin.
	Raw json.RawMessage `json:"-"`
	// Input places it in its call's input-required round.
	Input InputKey `json:"-"`
	// commandDir is where Command runs: the directory of the file that
	// defines it (Server.DefinitionDir), "" (mcpdeck's) for
	// --sampling-command, which the person typed there.
	commandDir string
}

// SampleMessage is one message of a sampling request.
type SampleMessage struct {
	Role string `json:"role"`
	Text string `json:"text"` // the text, or "[image 12 KB png]" for media
}

// FirstLine is the request in one line, for a history or a status line.
func (r SampleRequest) FirstLine() string {
	for _, m := range r.Messages {
		if t := strings.TrimSpace(m.Text); t != "" {
			line, _, _ := strings.Cut(t, "\n")
			return textsafe.SanitizeLine(line)
		}
	}
	return "(no text)"
}

// SampleResponse is the person's answer: a choice, and for a reply without
// a command the text they typed.
type SampleResponse struct {
	Choice string `json:"choice"`
	Text   string `json:"text,omitempty"`
	// Reply, with Choice SampleOnce, is a whole reply written elsewhere:
	// `mcpdeck serve` passes the request on to its agent's model and hands
	// back what it answered. It wins over Text and a sampling command.
	Reply *mcp.CreateMessageResult `json:"-"`
}

// SampleRecord is one sampling request in a server's history.
type SampleRecord struct {
	At      time.Time `json:"at"`
	Request string    `json:"request"` // first line of the request
	Outcome string    `json:"outcome"` // "replied (you)", "declined", …
}

// maxSampleHistory bounds a server's sampling history.
const maxSampleHistory = 50

// sample answers server's sampling request: a standing "never" declines
// without asking, "always" skips the question (a command then replies on its
// own), otherwise Options.Sample asks. The answer goes to the history. With
// MaxPendingAsks of the server's requests waiting it is declined at once,
// and only the burst is recorded (AskFlood), not each request.
func (p *askParts) sample(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	in, settle := roundOf(ctx).Claim(mcp.MethodSamplingCreateMessage, req.CreateMessageParams)
	defer settle()
	release, err := p.admitInput(ctx, server, in)
	if err != nil {
		return nil, err
	}
	defer release()
	var srv model.Server
	known := false
	p.e.locked(func() {
		if en := p.e.byName[server]; en != nil {
			srv, known = en.srv, true
		}
	})
	if !known {
		return nil, unknownServer(server)
	}
	r := newSampleRequest(server, req.CreateMessageParams)
	r.Input = in
	if ic := inputCallFrom(ctx); ic != nil {
		r.Request = ic.what
	}
	r.Command, r.commandDir = p.samplingCommand(srv)
	res, outcome, err := p.sampleAnswer(ctx, srv, r)
	p.record(server, r.FirstLine(), outcome)
	return res, err
}

// sampleAnswer decides and produces the answer, with the outcome worded
// for the history.
func (p *askParts) sampleAnswer(ctx context.Context, srv model.Server, r SampleRequest) (*mcp.CreateMessageResult, string, error) {
	e := p.e
	switch {
	case srv.Sampling == model.SamplingNever:
		return nil, "declined (never for this server)", ErrSamplingDeclined
	case srv.Sampling == model.SamplingAlways && r.Command != "":
		return samplereq.ByCommand(ctx, srv, r.Command, r.commandDir, r.Raw)
	}
	r.Allowed = srv.Sampling == model.SamplingAlways
	if e.opts.Sample == nil {
		e.log.Warn("sampling declined: no one to ask (run the TUI or pass --sampling-command)", "server", r.Server)
		return nil, "declined (no one to ask)", ErrSamplingDeclined
	}
	resp, err := e.opts.Sample(ctx, r)
	if err != nil {
		return nil, "failed: " + textsafe.SanitizeLine(err.Error()), fmt.Errorf("sampling for %s: %w", r.Server, err)
	}
	switch resp.Choice {
	case SampleDecline:
		return nil, "declined", ErrSamplingDeclined
	case SampleNever, SampleAlways:
		d := model.SamplingNever
		if resp.Choice == SampleAlways {
			d = model.SamplingAlways
		}
		if err := e.config.setSampling(ctx, srv.Name, d); err != nil {
			e.log.Warn("sampling decision not saved", "server", srv.Name, "err", err)
		}
		if d == model.SamplingNever {
			return nil, "declined (never for this server)", ErrSamplingDeclined
		}
	case SampleOnce:
	default:
		return nil, "failed", fmt.Errorf("sampling for %s: unknown answer %q", r.Server, resp.Choice)
	}
	if resp.Reply != nil {
		return resp.Reply, "replied (" + textsafe.SanitizeLine(resp.Reply.Model) + ", via mcpdeck serve)", nil
	}
	if r.Command != "" {
		return samplereq.ByCommand(ctx, srv, r.Command, r.commandDir, r.Raw)
	}
	res := &mcp.CreateMessageResult{Model: "human", StopReason: "endTurn"}
	res.Role = mcp.RoleAssistant
	res.Content = mcp.NewTextContent(resp.Text)
	return res, "replied (you)", nil
}

// samplingCommand is the command that writes srv's replies and the
// directory it runs in: --sampling-command for this run, in the directory
// mcpdeck was started in (""), where the person typed it; else the
// server's user-scope "sampling" setting, in the directory of its file
// (Server.DefinitionDir), so that a working tree mcpdeck was started in
// cannot redirect it (node_modules, .npmrc, pyproject.toml).
func (p *askParts) samplingCommand(srv model.Server) (cmd, dir string) {
	e := p.e
	if e.opts.SamplingCommand != "" {
		return e.opts.SamplingCommand, ""
	}
	cmd, err := config.SamplingCommand(srv)
	if err != nil {
		e.log.Warn("sampling command ignored", "server", srv.Name, "err", err)
		return "", ""
	}
	return cmd, srv.DefinitionDir()
}

// record adds one request to the server's sampling history (newest last).
func (p *askParts) record(server, request, outcome string) {
	p.e.ifEntry(server, func(en *entry) {
		a := &en.asks
		old := a.sampled[max(0, len(a.sampled)-maxSampleHistory+1):]
		h := make([]SampleRecord, 0, len(old)+1) // a new array: published snapshots keep theirs
		h = append(h, old...)
		a.sampled = append(h, SampleRecord{At: time.Now(), Request: request, Outcome: outcome})
		p.e.publishLocked()
	})
}

// newSampleRequest turns a server's sampling params into what the person
// is shown: sanitized texts, media as "[image 12 KB png]", tools by name.
func newSampleRequest(server string, p mcp.CreateMessageParams) SampleRequest {
	r := SampleRequest{
		Server:         server,
		SystemPrompt:   samplereq.Text(p.SystemPrompt),
		MaxTokens:      p.MaxTokens,
		Temperature:    p.Temperature,
		IncludeContext: textsafe.SanitizeLine(p.IncludeContext),
	}
	for _, s := range p.StopSequences {
		r.StopSequences = append(r.StopSequences, textsafe.SanitizeLine(s))
	}
	for _, t := range p.Tools {
		r.Tools = append(r.Tools, textsafe.SanitizeLine(t.Name))
	}
	r.Preferences = samplereq.Preferences(p.ModelPreferences)
	for _, m := range p.Messages {
		r.Messages = append(r.Messages, SampleMessage{Role: textsafe.SanitizeLine(string(m.Role)), Text: samplereq.Content(m.Content)})
	}
	if raw, err := json.Marshal(p); err == nil {
		r.Raw = raw
	}
	return r
}
