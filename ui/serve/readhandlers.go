package serve

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine"
)

// readResource reads a listed resource from the server that offers it.
func (g *Gateway) readResource(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	return g.read(ctx, req, func(x *exposure) (string, bool) { s, ok := x.resourceRoutes[req.Params.URI]; return s, ok },
		item{"resource", "resources", req.Params.URI})
}

// readTemplate reads a URI that matched template from the server offering
// the template.
func (g *Gateway) readTemplate(template string) func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	return func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return g.read(ctx, req, func(x *exposure) (string, bool) { s, ok := x.templateRoutes[template]; return s, ok },
			item{"resource template", "resource templates", template})
	}
}

// item names what a read goes through: a resource, or a template.
type item struct{ kind, kinds, name string }

// read runs a resources/read on the server find leads to, through what
// (one find may lead nowhere).
func (g *Gateway) read(ctx context.Context, req mcp.ReadResourceRequest, find func(*exposure) (string, bool), what item) ([]mcp.ResourceContents, error) {
	uri := req.Params.URI
	key := requestKey{mcp.MethodResourcesRead, uri}
	if req.Params.RequestState != "" {
		s, srv, err := g.resume(ctx, key, req.Params.Meta, req.Params.MultiRoundTripParams)
		if err != nil {
			return nil, err
		}
		return g.readStep(ctx, srv, s)
	}
	a := arrive(g, ctx, find, func(s string) string { return s })
	switch {
	case a.gone != "":
		return nil, goneError(what.kind, what.kinds, what.name, a.gone)
	case !a.ok:
		return nil, fmt.Errorf("mcpdeck serve offers no %s %q now", what.kind, what.name)
	}
	server := a.to
	if err := g.connected(ctx, server); err != nil {
		return nil, err
	}
	s := dispatch(g, ctx, key, server, req.Params.Meta, req.Params.InputResponses, func(ctx context.Context, _ func(engine.Progress)) (*mcp.ReadResourceResult, error) {
		return g.eng.ReadResourceRaw(ctx, server, uri)
	})
	return g.readStep(ctx, server, s)
}

// readStep is the resources/read answer for step s of a call on srv. A
// resource handler returns contents only, so questions travel as one
// inputRequired value the AfterReadResource hook turns into the result.
func (g *Gateway) readStep(ctx context.Context, srv string, s step) ([]mcp.ResourceContents, error) {
	switch {
	case s.ask != nil:
		return []mcp.ResourceContents{inputRequired{ask: *s.ask}}, nil
	case s.err != nil:
		return nil, g.failed(ctx, srv, s.err)
	}
	return s.res.(*mcp.ReadResourceResult).Contents, nil
}

// inputRequired carries a resources/read's questions from its handler to
// asInputRequired. It embeds TextResourceContents only to be one.
type inputRequired struct {
	mcp.TextResourceContents
	ask mcp.MultiRoundTripResult
}

// asInputRequired makes a resources/read result whose handler returned
// questions an input-required result (an AfterReadResource hook).
func asInputRequired(_ context.Context, _ any, _ *mcp.ReadResourceRequest, res *mcp.ReadResourceResult) {
	if res == nil || len(res.Contents) != 1 {
		return
	}
	if ir, ok := res.Contents[0].(inputRequired); ok {
		res.Contents = nil
		res.ResultType = mcp.ResultTypeInputRequired
		res.MultiRoundTripResult = ir.ask
	}
}
