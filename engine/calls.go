package engine

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpdeck/mcpdeck/engine/resultfile"
	"github.com/mcpdeck/mcpdeck/engine/schema"
)

// progressGrace is how long progress for a finished call is still delivered.
const progressGrace = 500 * time.Millisecond

// ErrUnknownTool is returned for a tool the server does not list.
var ErrUnknownTool = errors.New("no such tool")

// callTarget is one connected server, captured for a call.
type callTarget struct {
	name     string
	gen      uint64
	conn     session
	logLevel string // the level the person chose for the server's logs, "" for none
}

// connected returns the server's live connection.
func (e *Engine) connected(server string) (callTarget, *entry, error) {
	if e.closed {
		return callTarget{}, nil, ErrClosed
	}
	en := e.byName[server]
	if en == nil {
		return callTarget{}, nil, fmt.Errorf("%w: %s", ErrUnknownServer, server)
	}
	if en.conn == nil {
		return callTarget{}, nil, fmt.Errorf("%w: %s is %s", ErrNotConnected, server, en.s.State)
	}
	return callTarget{name: server, gen: en.st.Gen(), conn: en.conn, logLevel: en.logLevel}, en, nil
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
	out, err := e.results(server).Tool(res)
	if err != nil {
		return ToolResult{}, fmt.Errorf("tool %s on %s: %w", tool, server, err)
	}
	return out, nil
}

// CallToolRaw is CallTool returning the server's result as it came (no
// files, no sanitizing): for `mcpdeck serve`, which hands it on to an agent
// as JSON.
func (e *Engine) CallToolRaw(ctx context.Context, server, tool string, args map[string]any, progress func(Progress)) (*mcp.CallToolResult, error) {
	e.mu.Lock()
	t, en, err := e.connected(server)
	if err != nil {
		e.mu.Unlock()
		return nil, err
	}
	var def *Tool
	for i := range en.s.Tools {
		if en.s.Tools[i].Name == tool || en.s.Tools[i].ExposedName == tool {
			def = &en.s.Tools[i]
			break
		}
	}
	if def == nil {
		refused := e.toolsRefusedLocked(en)
		e.mu.Unlock()
		if refused != nil {
			return nil, fmt.Errorf("call %s on %s: %w", tool, server, refused)
		}
		return nil, fmt.Errorf("%w: server %s has no tool %q", ErrUnknownTool, server, tool)
	}
	name := def.Name
	if def.Denied {
		_, rule := e.res.Permissions.Check(def.ExposedName)
		e.mu.Unlock()
		return nil, fmt.Errorf("%w: %s (rule %s)", ErrDenied, def.ExposedName, rule)
	}
	sch, err := e.schemaLocked(en, def)
	var tok string
	if err == nil && progress != nil {
		e.tokens++
		tok = "mcpdeck-" + strconv.FormatUint(e.tokens, 10)
		e.progress[tok] = progress
	}
	e.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("tool %s: %w", tool, err)
	}
	if tok != "" {
		// Servers may write progress after the result (mcp-go queues
		// notifications apart from responses), so late ones are still
		// delivered for a short while after the call returns.
		defer time.AfterFunc(progressGrace, func() {
			e.mu.Lock()
			delete(e.progress, tok)
			e.mu.Unlock()
		})
	}
	args = sch.OmitNulls(args)
	if err := sch.Validate(name, args); err != nil {
		return nil, err
	}

	ctx, cancel := e.withToolTimeout(ctx)
	defer cancel()
	ctx = withInputCall(ctx, "tools/call "+name)
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	if tok != "" {
		req.Params.Meta = &mcp.Meta{ProgressToken: tok}
	}
	req.Params.Meta = t.withLogLevel(req.Params.Meta)
	var res *mcp.CallToolResult
	for round := 0; ; round++ {
		err = e.do(ctx, t, func(c session) error {
			var err error
			res, err = c.Client().CallTool(ctx, req)
			return err
		})
		var urlErr mcp.URLElicitationRequiredError
		if err == nil || !errors.As(err, &urlErr) || round >= maxURLElicitRetry {
			break
		}
		if err := e.elicitURLs(ctx, server, urlErr); err != nil {
			return nil, err
		}
	}
	if err != nil {
		return nil, e.callError(ctx, server, "calling "+tool, err)
	}
	return res, nil
}

// elicitURLs shows each URL a -32042 error names and waits for the person.
func (e *Engine) elicitURLs(ctx context.Context, server string, ue mcp.URLElicitationRequiredError) error {
	if len(ue.Elicitations) == 0 {
		return fmt.Errorf("server %s requires a URL elicitation but named no URL", server)
	}
	for _, p := range ue.Elicitations {
		r := ElicitRequest{Server: server, Mode: "url", Message: sanitize(p.Message), URL: p.URL, ElicitationID: p.ElicitationID}
		release, err := e.admitAsk(server)
		if err != nil {
			return fmt.Errorf("server %s asks you to open %s: %w", server, p.URL, err)
		}
		resp, err := e.answer(ctx, r)
		release()
		if err != nil {
			return err
		}
		if resp.Action != ElicitAccept {
			msg := fmt.Sprintf("server %s needs you to open %s; the request was %sd", server, p.URL, resp.Action)
			if resp.Reason != "" {
				msg += " (" + resp.Reason + ")"
			}
			return errors.New(msg)
		}
	}
	return nil
}

// schemaLocked compiles and caches the tool's input schema.
func (e *Engine) schemaLocked(en *entry, def *Tool) (*schema.Input, error) {
	if s, ok := en.schemas[def.Name]; ok {
		return s, nil
	}
	s, err := schema.New(def.InputSchema)
	if err != nil {
		return nil, err
	}
	if en.schemas == nil {
		en.schemas = map[string]*schema.Input{}
	}
	en.schemas[def.Name] = s
	return s, nil
}

// ReadResource reads a resource; text is shown, blobs go to files.
func (e *Engine) ReadResource(ctx context.Context, server, uri string) (ResourceResult, error) {
	res, err := e.ReadResourceRaw(ctx, server, uri)
	if err != nil {
		return ResourceResult{}, err
	}
	return e.results(server).Resource(res)
}

// ReadResourceRaw is ReadResource returning the server's result as it came
// (for `mcpdeck serve`).
func (e *Engine) ReadResourceRaw(ctx context.Context, server, uri string) (*mcp.ReadResourceResult, error) {
	e.mu.Lock()
	t, _, err := e.connected(server)
	e.mu.Unlock()
	if err != nil {
		return nil, err
	}
	ctx, cancel := e.withToolTimeout(ctx)
	defer cancel()
	ctx = withInputCall(ctx, "resources/read "+uri)
	res, err := e.readResource(ctx, t, uri)
	if err != nil {
		return nil, e.callError(ctx, server, "reading "+uri, err)
	}
	return res, nil
}

// GetPrompt gets a prompt with its arguments filled in.
func (e *Engine) GetPrompt(ctx context.Context, server, name string, args map[string]string) (PromptResult, error) {
	res, err := e.GetPromptRaw(ctx, server, name, args)
	if err != nil {
		return PromptResult{}, err
	}
	return e.results(server).Prompt(res)
}

// GetPromptRaw is GetPrompt returning the server's result as it came (for
// `mcpdeck serve`).
func (e *Engine) GetPromptRaw(ctx context.Context, server, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	e.mu.Lock()
	t, en, err := e.connected(server)
	var missing []string
	if err == nil {
		for _, p := range en.s.Prompts {
			if p.Name != name {
				continue
			}
			for _, a := range p.Arguments {
				if _, ok := args[a.Name]; a.Required && !ok {
					missing = append(missing, a.Name)
				}
			}
		}
	}
	e.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w for prompt %s: missing required argument(s) %v", ErrInvalidArguments, name, missing)
	}
	ctx, cancel := e.withToolTimeout(ctx)
	defer cancel()
	ctx = withInputCall(ctx, "prompts/get "+name)
	var res *mcp.GetPromptResult
	err = e.do(ctx, t, func(c session) error {
		req := mcp.GetPromptRequest{}
		req.Params.Name = name
		req.Params.Arguments = args
		req.Params.Meta = t.withLogLevel(nil)
		var err error
		res, err = c.Client().GetPrompt(ctx, req)
		return err
	})
	if err != nil {
		return nil, e.callError(ctx, server, "getting prompt "+name, err)
	}
	return res, nil
}

// withToolTimeout applies MCP_TOOL_TIMEOUT unless the caller's deadline is
// already sooner.
func (e *Engine) withToolTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if d, ok := ctx.Deadline(); ok && time.Until(d) <= e.set.toolTimeout {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, e.set.toolTimeout)
}

// readResource sends resources/read for uri on t's session (with the
// engine's session-expiry and error-class handling of do).
func (e *Engine) readResource(ctx context.Context, t callTarget, uri string) (*mcp.ReadResourceResult, error) {
	var res *mcp.ReadResourceResult
	err := e.do(ctx, t, func(c session) error {
		req := mcp.ReadResourceRequest{}
		req.Params.URI = uri
		req.Params.Meta = t.withLogLevel(nil)
		var err error
		res, err = c.Client().ReadResource(ctx, req)
		return err
	})
	return res, err
}

// results is the writer of server's processed results.
func (e *Engine) results(server string) resultfile.Writer {
	return resultfile.New(e.opts.CacheDir, server, maxTextLen)
}

// ErrInvalidArguments is returned when tool arguments do not match the
// tool's input schema; the message names the field.
var ErrInvalidArguments = schema.ErrInvalidArguments
