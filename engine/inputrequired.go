package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine/inputround"
	"github.com/mcpdeck/mcpdeck/engine/lock"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/transports"
)

// A request on a 2026-07-28 session (tools/call, prompts/get,
// resources/read) may answer "input required": mcp-go asks the elicitation
// handler for each input the server wants and retries the request with the
// answers and the server's request state, one JSON-RPC id per round, at most
// transports.MaxInputRounds rounds. The loop and its state live in the call's
// own stack in mcp-go, so two calls in flight never see each other's state;
// what mcpdeck adds rides on the call's context: which request the input is
// for (shown to the person) and whether the person already declined.

// ErrInputDeclined ends a request whose server asked for input again after
// the person declined or cancelled an earlier request for input.
var ErrInputDeclined = errors.New("you declined the server's request for input")

// inputCall is one request that may ask for input; it lives in the
// request's context.
type inputCall struct {
	what string // "tools/call NAME", shown with the prompt

	round inputround.Current // the latest input-required round

	mu       sync.Mutex
	declined *ElicitRequest // the request for input the person declined
	action   string         // decline or cancel
}

type inputCallKey struct{}

// withInputCall marks ctx as carrying the request what (e.g. "tools/call
// feedback"), so requests for input it answers with are tied to it.
func withInputCall(ctx context.Context, what string) context.Context {
	ic := &inputCall{what: what}
	ctx = transports.TakeResult(ctx, callMethod(what), ic.round.Note)
	return context.WithValue(ctx, inputCallKey{}, ic)
}

// inputCallFrom returns the request ctx carries, nil for a server's own
// elicitation/create (which arrives on the connection's context).
func inputCallFrom(ctx context.Context) *inputCall {
	ic, _ := ctx.Value(inputCallKey{}).(*inputCall)
	return ic
}

// roundOf is the input-required round of the request ctx carries; nil
// (a request for input in no round) when it carries none.
func roundOf(ctx context.Context) *inputround.Current {
	if ic := inputCallFrom(ctx); ic != nil {
		return &ic.round
	}
	return nil
}

// InputKey places a server's request for input in its call's round
// (engine/inputround); the zero value is a request the server sent on its
// own.
type InputKey = inputround.Key

// callMethod is the method of a call's what ("tools/call NAME").
func callMethod(what string) string {
	m, _, _ := strings.Cut(what, " ")
	return m
}

// ask answers one request for input of the call: after a decline or cancel
// of an earlier one the call ends (the retry told the server, and the person
// is not asked again); otherwise the person is asked.
func (ic *inputCall) ask(ctx context.Context, r ElicitRequest, answer func(context.Context, ElicitRequest) (ElicitResponse, error)) (ElicitResponse, error) {
	var prev *ElicitRequest
	var action string
	lock.With(&ic.mu, func() { prev, action = ic.declined, ic.action })
	if prev != nil {
		return ElicitResponse{}, &declinedError{message: prev.Message, action: action}
	}
	resp, err := answer(ctx, r)
	if err == nil && (resp.Action == ElicitDecline || resp.Action == ElicitCancel) {
		lock.With(&ic.mu, func() {
			if ic.declined == nil {
				ic.declined, ic.action = &r, resp.Action
			}
		})
	}
	return resp, err
}

// inputWhy words the end of a request whose input loop did not finish, or
// returns "" for any other error.
func inputWhy(err error) string {
	var d *declinedError
	switch {
	case errors.As(err, &d):
		return d.Error()
	case errors.Is(err, client.ErrMaxInputRoundTripsExceeded):
		return fmt.Sprintf("the server kept asking for more input, and mcpdeck stops a request after %d rounds (%v)",
			transports.MaxInputRounds, err)
	case errors.Is(err, inputround.ErrTooLarge):
		var r inputround.TooLargeError
		errors.As(err, &r)
		return r.Error()
	case errors.Is(err, ErrTooManyAsks):
		return fmt.Sprintf("the server asked for more input at once than mcpdeck lets wait (%d requests per server), so mcpdeck declined the rest and stopped the request",
			MaxPendingAsks)
	}
	return ""
}

// declinedError is ErrInputDeclined with what was declined.
type declinedError struct {
	message string // the declined request's message, sanitized
	action  string // decline or cancel
}

func (d *declinedError) Error() string {
	return fmt.Sprintf("you %sd the server's request for input (%s), and it asked for input again, so mcpdeck stopped the request",
		d.action, textsafe.SanitizeLine(d.message))
}

// Is makes errors.Is(err, ErrInputDeclined) hold.
func (d *declinedError) Is(target error) bool { return target == ErrInputDeclined }

// WithDeclaredCapabilities returns a context under which a call's requests
// to a server on protocol 2026-07-28 declare edit(own) as the client's
// capabilities, own being what mcpdeck declares; edit runs at each
// request. A gateway (mcpdeck serve) declares what the agent it calls for
// can have answered, so the server asks only that. A server on an earlier
// protocol learnt the capabilities once, at initialize, and keeps them.
func WithDeclaredCapabilities(ctx context.Context, edit func(own mcp.ClientCapabilities) mcp.ClientCapabilities) context.Context {
	return transports.WithCapabilities(ctx, edit)
}

// WithInputResponses returns a context under which a call (method
// "tools/call", "prompts/get" or "resources/read") to a server on
// 2026-07-28 sends in with its first request: answers a client gave before
// the server asked (a gateway passing on an agent's request that has them).
func WithInputResponses(ctx context.Context, method string, in mcp.InputResponses) (context.Context, error) {
	raw, err := json.Marshal(in)
	if err != nil {
		return ctx, fmt.Errorf("the answers given with the request cannot be passed on: %w", err)
	}
	return transports.WithFirstInput(ctx, method, raw), nil
}
