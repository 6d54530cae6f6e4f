package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// askParts answers what servers ask of the person: elicitation (forms and
// URLs) and sampling (sampling.go), each first admitted under the server's
// MaxPendingAsks (asklimit.go).
type askParts struct{ e *Engine }

// askState is what asks keep per server: the requests waiting for an
// answer, the latest burst of declined ones and the sampling history.
type askState struct {
	// asking counts the server's requests waiting for an answer (at most
	// MaxPendingAsks); lastDecline is when one was last declined, timer
	// the pending publish of a burst's counts (flood).
	asking      int
	lastDecline time.Time
	timer       *time.Timer
	flood       AskFlood
	sampled     []SampleRecord // the last sampling requests, oldest first
}

// elicit routes a server's elicitation/create to Options.Elicit, unless
// MaxPendingAsks of the server's requests already wait (then it is declined
// at once).
func (p *askParts) elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	in, settle := roundOf(ctx).Claim(mcp.MethodElicitationCreate, req.Params)
	defer settle()
	release, err := p.admitInput(ctx, server, in)
	if err != nil {
		return nil, err
	}
	defer release()
	pr := req.Params
	mode := pr.Mode
	if mode == "" {
		mode = string(mcp.ElicitationModeForm)
	}
	r := ElicitRequest{Server: server, Mode: mode, Message: sanitize(pr.Message), URL: pr.URL, ElicitationID: pr.ElicitationID, Input: in}
	if pr.RequestedSchema != nil {
		raw, err := json.Marshal(pr.RequestedSchema)
		if err == nil {
			r.Schema = raw
		}
	}
	answer := p.answer
	if ic := inputCallFrom(ctx); ic != nil {
		r.Request = ic.what
		answer = func(ctx context.Context, r ElicitRequest) (ElicitResponse, error) { return ic.ask(ctx, r, p.answer) }
	}
	resp, err := answer(ctx, r)
	if err != nil {
		return nil, err
	}
	out := &mcp.ElicitationResult{}
	out.Action = mcp.ElicitationResponseAction(resp.Action)
	if resp.Action == ElicitAccept && resp.Content != nil {
		out.Content = resp.Content
	}
	return out, nil
}

// admitInput admits a request for input under its server's
// MaxPendingAsks: the requests of one input-required round share one
// place (inputround.Current.Hold), any other request takes a place of
// its own.
func (p *askParts) admitInput(ctx context.Context, server string, in InputKey) (func(), error) {
	if in.Key == "" {
		return p.admit(server)
	}
	return roundOf(ctx).Hold(func() (func(), error) { return p.admit(server) })
}

// answer asks the configured handler, declining when there is none.
func (p *askParts) answer(ctx context.Context, r ElicitRequest) (ElicitResponse, error) {
	e := p.e
	if e.opts.Elicit == nil {
		e.log.Warn("elicitation declined: no handler (run the TUI or pass --elicit)", "server", r.Server, "mode", r.Mode, "message", r.Message)
		return ElicitResponse{Action: ElicitDecline, Reason: "elicitation needs the TUI or the --elicit flag"}, nil
	}
	resp, err := e.opts.Elicit(ctx, r)
	if err != nil {
		return ElicitResponse{}, fmt.Errorf("elicitation for %s: %w", r.Server, err)
	}
	switch resp.Action {
	case ElicitAccept, ElicitDecline, ElicitCancel:
	default:
		return ElicitResponse{}, fmt.Errorf("elicitation for %s: unknown action %q", r.Server, resp.Action)
	}
	if resp.Reason != "" {
		e.log.Info("elicitation answered", "server", r.Server, "action", resp.Action, "reason", resp.Reason)
	}
	return resp, nil
}

// elicitURLs shows each URL a -32042 error names and waits for the person.
func (p *askParts) elicitURLs(ctx context.Context, server string, ue mcp.URLElicitationRequiredError) error {
	if len(ue.Elicitations) == 0 {
		return fmt.Errorf("server %s requires a URL elicitation but named no URL", server)
	}
	for _, el := range ue.Elicitations {
		r := ElicitRequest{Server: server, Mode: "url", Message: sanitize(el.Message), URL: el.URL, ElicitationID: el.ElicitationID}
		release, err := p.admit(server)
		if err != nil {
			return fmt.Errorf("server %s asks you to open %s: %w", server, el.URL, err)
		}
		resp, err := p.answer(ctx, r)
		release()
		if err != nil {
			return err
		}
		if resp.Action != ElicitAccept {
			msg := fmt.Sprintf("server %s needs you to open %s; the request was %sd", server, el.URL, resp.Action)
			if resp.Reason != "" {
				msg += " (" + resp.Reason + ")"
			}
			return errors.New(msg)
		}
	}
	return nil
}
