package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine/resultfile"
	"github.com/mcpdeck/mcpdeck/engine/schema"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/pins"
)

// progressGrace is how long progress for a finished call is still delivered.
const progressGrace = 500 * time.Millisecond

// ErrUnknownTool is returned for a tool the server does not list.
var ErrUnknownTool = errors.New("no such tool")

// ErrInvalidArguments is returned when tool arguments do not match the
// tool's input schema; the message names the field.
var ErrInvalidArguments = schema.ErrInvalidArguments

// callParts runs requests on a server's connection: tool calls, resource
// reads, prompts, completions and tool definitions, with the error classes
// applied to the connection (callfailure.go).
type callParts struct{ e *Engine }

// callState is what calls keep per server: compiled input schemas by
// tool name, dropped with the connection's lists.
type callState struct {
	schemas map[string]*schema.Input
}

// forget drops the compiled schemas.
func (c *callState) forget() { c.schemas = nil }

// schemaFor compiles and caches the tool's input schema.
func (c *callState) schemaFor(def Tool) (*schema.Input, error) {
	if s, ok := c.schemas[def.Name]; ok {
		return s, nil
	}
	s, err := schema.New(def.InputSchema)
	if err != nil {
		return nil, err
	}
	if c.schemas == nil {
		c.schemas = map[string]*schema.Input{}
	}
	c.schemas[def.Name] = s
	return s, nil
}

// callTarget is one connected server, captured for a call.
type callTarget struct {
	name     string
	gen      uint64
	conn     session
	logLevel string // the level the person chose for the server's logs, "" for none
}

// targetLocked returns en's live connection as a call target.
func targetLocked(en *entry) (callTarget, error) {
	name := en.srv.Name
	if en.conn.conn == nil {
		return callTarget{}, fmt.Errorf("%w: %s is %s", ErrNotConnected, name, en.st.Current())
	}
	return callTarget{name: name, gen: en.st.Gen(), conn: en.conn.conn, logLevel: en.logs.level}, nil
}

// target returns server's live connection.
func (c *callParts) target(server string) (t callTarget, err error) {
	err = c.e.withEntry(server, func(en *entry) (err error) {
		t, err = targetLocked(en)
		return err
	})
	return t, err
}

// CallTool validates args against the tool's input schema, checks the
// permission rules, calls the tool (retrying after an expired session or a
// URL elicitation) and processes the result. progress, if not
// nil, receives the server's progress notifications.
func (e *Engine) CallTool(ctx context.Context, server, tool string, args map[string]any, progress func(Progress)) (ToolResult, error) {
	res, err := e.CallToolRaw(ctx, server, tool, args, progress)
	if err != nil {
		return ToolResult{}, err
	}
	out, err := e.calls.results(server).Tool(res)
	if err != nil {
		return ToolResult{}, fmt.Errorf("tool %s on %s: %w", tool, server, err)
	}
	return out, nil
}

// CallToolRaw is CallTool returning the server's result as it came (no
// files, no sanitizing): for `mcpdeck serve`, which hands it on to an agent
// as JSON.
func (e *Engine) CallToolRaw(ctx context.Context, server, tool string, args map[string]any, progress func(Progress)) (*mcp.CallToolResult, error) {
	return e.calls.tool(ctx, server, tool, args, progress)
}

// toolCall is what a tool call takes from the engine's state.
type toolCall struct {
	t    callTarget
	name string // the tool's name on the server
	sch  *schema.Input
	tok  string // the progress token, "" without progress
}

// prepare checks that server is connected and lists tool, that no rule
// denies it, compiles its schema and registers progress.
func (c *callParts) prepare(server, tool string, progress func(Progress)) (tc toolCall, err error) {
	e := c.e
	err = e.withEntry(server, func(en *entry) (err error) {
		if tc.t, err = targetLocked(en); err != nil {
			return err
		}
		def, ok := en.lists.tool(tool)
		if !ok {
			return unknownToolLocked(e, en, tool)
		}
		if def.Denied {
			_, rule := e.res.Permissions.Check(def.ExposedName)
			return &DeniedError{
				Server: server, Name: tool, Tool: def.ExposedName, Rule: rule,
				Unreadable: len(e.res.Permissions.Unreadable) > 0,
			}
		}
		if st, withheld := en.pins.report.Status(pins.KindTool, def.Name); withheld {
			return withheldError(server, pins.KindTool, def.Name, st)
		}
		tc.name = def.Name
		if tc.sch, err = en.calls.schemaFor(def); err != nil {
			return fmt.Errorf("tool %s: %w", tool, err)
		}
		if progress != nil {
			tc.tok = e.notes.addProgressLocked(progress)
		}
		return nil
	})
	return tc, err
}

// tool runs CallToolRaw.
func (c *callParts) tool(ctx context.Context, server, tool string, args map[string]any, progress func(Progress)) (*mcp.CallToolResult, error) {
	e := c.e
	c.awaitUp(ctx, server)
	tc, err := c.prepare(server, tool, progress)
	if errors.Is(err, ErrUnknownTool) && e.lists.relistTools(ctx, server) {
		tc, err = c.prepare(server, tool, progress)
	}
	if err != nil {
		return nil, err
	}
	if tc.tok != "" {
		// Servers may write progress after the result (mcp-go queues
		// notifications apart from responses), so late ones are still
		// delivered for a short while after the call returns.
		defer time.AfterFunc(progressGrace, func() { e.notes.dropProgress(tc.tok) })
	}
	args = tc.sch.OmitNulls(args)
	if err := tc.sch.Validate(tc.name, args); err != nil {
		return nil, err
	}

	ctx, cancel := c.withToolTimeout(ctx)
	defer cancel()
	ctx = withInputCall(ctx, "tools/call "+tc.name)
	req := mcp.CallToolRequest{}
	req.Params.Name = tc.name
	req.Params.Arguments = args
	if tc.tok != "" {
		req.Params.Meta = &mcp.Meta{ProgressToken: tc.tok}
	}
	req.Params.Meta = tc.t.withLogLevel(req.Params.Meta)
	var res *mcp.CallToolResult
	for round := 0; ; round++ {
		err = c.do(ctx, tc.t, func(s session) error {
			var err error
			res, err = s.Client().CallTool(ctx, req)
			return err
		})
		var urlErr mcp.URLElicitationRequiredError
		if err == nil || !errors.As(err, &urlErr) || round >= maxURLElicitRetry {
			break
		}
		if err := e.asks.elicitURLs(ctx, server, urlErr); err != nil {
			return nil, err
		}
	}
	if err != nil {
		return nil, c.callError(ctx, server, "calling "+tool, err)
	}
	return res, nil
}

// ReadResource reads a resource; text is shown, blobs go to files.
func (e *Engine) ReadResource(ctx context.Context, server, uri string) (ResourceResult, error) {
	res, err := e.ReadResourceRaw(ctx, server, uri)
	if err != nil {
		return ResourceResult{}, err
	}
	return e.calls.results(server).Resource(res)
}

// ReadResourceRaw is ReadResource returning the server's result as it came
// (for `mcpdeck serve`).
func (e *Engine) ReadResourceRaw(ctx context.Context, server, uri string) (*mcp.ReadResourceResult, error) {
	c := e.calls
	c.awaitUp(ctx, server)
	t, err := c.target(server)
	if err != nil {
		return nil, err
	}
	ctx, cancel := c.withToolTimeout(ctx)
	defer cancel()
	ctx = withInputCall(ctx, "resources/read "+uri)
	res, err := c.readResource(ctx, t, uri)
	if err != nil {
		return nil, c.callError(ctx, server, "reading "+uri, err)
	}
	return res, nil
}

// GetPrompt gets a prompt with its arguments filled in.
func (e *Engine) GetPrompt(ctx context.Context, server, name string, args map[string]string) (PromptResult, error) {
	res, err := e.GetPromptRaw(ctx, server, name, args)
	if err != nil {
		return PromptResult{}, err
	}
	return e.calls.results(server).Prompt(res)
}

// GetPromptRaw is GetPrompt returning the server's result as it came (for
// `mcpdeck serve`).
func (e *Engine) GetPromptRaw(ctx context.Context, server, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	return e.calls.prompt(ctx, server, name, args)
}

// prompt runs GetPromptRaw.
func (c *callParts) prompt(ctx context.Context, server, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	var t callTarget
	var missing []string
	c.awaitUp(ctx, server)
	err := c.e.withEntry(server, func(en *entry) (err error) {
		if t, err = targetLocked(en); err != nil {
			return err
		}
		if st, withheld := en.pins.report.Status(pins.KindPrompt, name); withheld {
			return withheldError(server, pins.KindPrompt, name, st)
		}
		missing = en.lists.missingArguments(name, args)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w for prompt %s: missing required argument(s) %v", ErrInvalidArguments, name, missing)
	}
	ctx, cancel := c.withToolTimeout(ctx)
	defer cancel()
	ctx = withInputCall(ctx, "prompts/get "+name)
	var res *mcp.GetPromptResult
	err = c.do(ctx, t, func(s session) error {
		req := mcp.GetPromptRequest{}
		req.Params.Name = name
		req.Params.Arguments = args
		req.Params.Meta = t.withLogLevel(nil)
		var err error
		res, err = s.Client().GetPrompt(ctx, req)
		return err
	})
	if err != nil {
		return nil, c.callError(ctx, server, "getting prompt "+name, err)
	}
	return res, nil
}

// withToolTimeout applies MCP_TOOL_TIMEOUT unless the caller's deadline is
// already sooner.
func (c *callParts) withToolTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	limit := c.e.set.toolTimeout
	if d, ok := ctx.Deadline(); ok && time.Until(d) <= limit {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, limit)
}

// readResource sends resources/read for uri on t's session (with the
// engine's session-expiry and error-class handling of do).
func (c *callParts) readResource(ctx context.Context, t callTarget, uri string) (*mcp.ReadResourceResult, error) {
	var res *mcp.ReadResourceResult
	err := c.do(ctx, t, func(s session) error {
		req := mcp.ReadResourceRequest{}
		req.Params.URI = uri
		req.Params.Meta = t.withLogLevel(nil)
		var err error
		res, err = s.Client().ReadResource(ctx, req)
		return err
	})
	return res, err
}

// results is the writer of server's processed results.
func (c *callParts) results(server string) resultfile.Writer {
	return resultfile.New(c.e.opts.CacheDir, server, maxTextLen)
}

// A request to a server on its way to a connection (pending: starting,
// reconnecting after a loss, or waiting out its backoff) waits for it, at
// most the connect timeout, rather than failing at once: a batch's next
// line after a connection loss, a call made while the server restarts.
// A server in any other state fails the request at once, saying its
// state, as before.

// awaitUp waits while server is pending, at most the connect timeout (or
// until ctx ends, or the engine closes).
func (c *callParts) awaitUp(ctx context.Context, server string) {
	e := c.e
	limit := time.NewTimer(e.set.connectTimeout)
	defer limit.Stop()
	for {
		var changed chan struct{}
		e.ifEntry(server, func(en *entry) {
			if !e.closed && en.st.Current() == model.StatePending {
				changed = e.changed
			}
		})
		if changed == nil {
			return
		}
		select {
		case <-changed:
		case <-limit.C:
			return
		case <-ctx.Done():
			return
		}
	}
}
