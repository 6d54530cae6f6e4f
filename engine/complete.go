package engine

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// CompletionRef names what an argument belongs to: a prompt, or a resource
// template (by its URI template). One of the two is set.
type CompletionRef struct {
	Prompt   string
	Template string
}

// Limits on what a server may suggest: the protocol itself caps a
// completion at 100 values; a value is a word or a name, not a document.
const (
	maxCompletions     = 100
	maxCompletionValue = 256
	completeTimeout    = 5 * time.Second
)

// Complete asks server for values of argument arg of ref that complete
// value, given the arguments already filled in (others). It returns nothing,
// without asking, when the server does not advertise completions. Values
// are sanitized, capped in number and length, and empty ones dropped.
func (e *Engine) Complete(ctx context.Context, server string, ref CompletionRef, arg, value string, others map[string]string) ([]string, error) {
	c := e.calls
	t, err := c.target(server)
	if err != nil {
		return nil, err
	}
	if init := t.conn.Init(); init == nil || init.Capabilities.Completions == nil {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, completeTimeout)
	defer cancel()
	var res *mcp.CompleteResult
	err = c.do(ctx, t, func(s session) error {
		req := mcp.CompleteRequest{}
		if ref.Prompt != "" {
			req.Params.Ref = mcp.PromptReference{Type: "ref/prompt", Name: ref.Prompt}
		} else {
			req.Params.Ref = mcp.ResourceReference{Type: "ref/resource", URI: ref.Template}
		}
		req.Params.Argument = mcp.CompleteArgument{Name: arg, Value: value}
		req.Params.Context.Arguments = others
		var err error
		res, err = s.Client().Complete(ctx, req)
		return err
	})
	if err != nil {
		return nil, c.callError(ctx, server, "completing "+arg, err)
	}
	var out []string
	for _, v := range res.Completion.Values {
		if v = textsafe.SanitizeLine(v); v == "" || len(v) > maxCompletionValue {
			continue
		}
		if out = append(out, v); len(out) == maxCompletions {
			break
		}
	}
	return out, nil
}
