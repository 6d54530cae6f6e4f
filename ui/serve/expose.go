package serve

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/pins"
)

// route is where an exposed tool or prompt name leads: a server and the
// tool's or prompt's own name there.
type route struct {
	server, name string
}

// to is the server r leads to.
func (r route) to() string { return r.server }

// exposure is what the gateway offers for one engine snapshot: the lists its
// agent sees, where each name leads, and what was left out and why.
type exposure struct {
	tools     []mcp.Tool
	prompts   []mcp.Prompt
	resources []mcp.Resource
	templates []mcp.ResourceTemplate

	toolRoutes     map[string]route
	promptRoutes   map[string]route
	resourceRoutes map[string]string // URI → server
	templateRoutes map[string]string // URI template → server

	// left are the items not offered, each a sentence for the person's log
	// (a name two servers share, a definition the protocol library refuses).
	left []string
	// clashes are the names two servers share, each a sentence naming
	// both (--prefix never refuses to start on one).
	clashes []string
}

// expose builds the exposure of snap, tools and prompts named as
// f.prefix says (naming.go). Servers come in the engine's order
// (scope high to low, then name), so when two tools or prompts meet under
// one name, or two servers offer one URI, the first server keeps it.
func expose(snap engine.Snapshot, f filter) exposure {
	x := exposure{
		toolRoutes: map[string]route{}, promptRoutes: map[string]route{},
		resourceRoutes: map[string]string{}, templateRoutes: map[string]string{},
	}
	name := f.prefix.namer(snap, f)
	for i := range snap.Servers {
		srv := &snap.Servers[i]
		if !f.exposes(srv) {
			continue
		}
		x.addTools(srv, f, name)
		x.addPrompts(srv, name)
		x.addResources(srv)
	}
	return x
}

// taken records that kind srv/item cannot be offered as name, already
// r's: a sentence for the person, and a clash when two servers meet.
func (x *exposure) taken(kind string, srv, item, name string, r route) {
	s := fmt.Sprintf("%s %s/%s is not offered: its name %s is already %s/%s's", kind, srv, item, name, r.server, r.name)
	x.left = append(x.left, s)
	if r.server != srv {
		x.clashes = append(x.clashes, fmt.Sprintf("%s %s is offered by %s (%s) and %s (%s)", kind, name, r.server, r.name, srv, item))
	}
}

func (x *exposure) addTools(srv *engine.ServerSnapshot, f filter, nameOf namer) {
	for _, t := range srv.Tools {
		name := nameOf(srv.Name, t.Name)
		// --tools matches SERVER__TOOL, and also the name shown when that differs.
		if t.Denied || !f.tool(srv, t.Name, model.ServeName(srv.Name, t.Name)) && !f.tool(srv, t.Name, name) || x.withheld(srv, pins.KindTool, t.Name, t.Withheld) {
			continue
		}
		if name == "" {
			x.left = append(x.left, fmt.Sprintf("tool %s/%s is not offered: it has no name", srv.Name, t.Name))
			continue
		}
		if r, taken := x.toolRoutes[name]; taken {
			x.taken("tool", srv.Name, t.Name, name, r)
			continue
		}
		mt := toolOf(name, t)
		if err := mcp.ValidateParamHeaderAnnotations(&mt); err != nil {
			x.left = append(x.left, fmt.Sprintf("tool %s/%s is not offered: %v", srv.Name, t.Name, err))
			continue
		}
		x.toolRoutes[name] = route{srv.Name, t.Name}
		x.tools = append(x.tools, mt)
	}
}

// toolOf is t as offered under name. The engine keeps the description
// sanitized and capped, and of the annotations only those that are true.
func toolOf(name string, t engine.Tool) mcp.Tool {
	schema := json.RawMessage(`{"type":"object"}`)
	if s := bytes.TrimSpace(t.InputSchema); len(s) > 0 && s[0] == '{' && json.Valid(s) {
		schema = s
	}
	mt := mcp.Tool{Name: name, Title: t.Title, Description: t.Description, RawInputSchema: schema}
	yes := func(b bool) *bool {
		if !b {
			return nil
		}
		return &b
	}
	mt.Annotations = mcp.ToolAnnotation{ReadOnlyHint: yes(t.ReadOnly), DestructiveHint: yes(t.Destructive), OpenWorldHint: yes(t.OpenWorld)}
	return mt
}

func (x *exposure) addPrompts(srv *engine.ServerSnapshot, nameOf namer) {
	for _, p := range srv.Prompts {
		name := nameOf(srv.Name, p.Name)
		if x.withheld(srv, pins.KindPrompt, p.Name, p.Withheld) {
			continue
		}
		if name == "" {
			x.left = append(x.left, fmt.Sprintf("prompt %s/%s is not offered: it has no name", srv.Name, p.Name))
			continue
		}
		if r, taken := x.promptRoutes[name]; taken {
			x.taken("prompt", srv.Name, p.Name, name, r)
			continue
		}
		mp := mcp.Prompt{Name: name, Description: p.Description}
		for _, a := range p.Arguments {
			mp.Arguments = append(mp.Arguments, mcp.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		x.promptRoutes[name] = route{srv.Name, p.Name}
		x.prompts = append(x.prompts, mp)
	}
}

func (x *exposure) addResources(srv *engine.ServerSnapshot) {
	for _, r := range srv.Resources {
		if other, taken := x.resourceRoutes[r.URI]; taken {
			x.left = append(x.left, fmt.Sprintf("resource %s of %s is not offered: %s offers the same URI", r.URI, srv.Name, other))
			continue
		}
		x.resourceRoutes[r.URI] = srv.Name
		x.resources = append(x.resources, mcp.Resource{URI: r.URI, Name: r.Name, Description: r.Description, MIMEType: r.MIMEType})
	}
	for _, t := range srv.Templates {
		if x.withheld(srv, pins.KindTemplate, t.Name, t.Withheld) {
			continue
		}
		if other, taken := x.templateRoutes[t.URITemplate]; taken {
			x.left = append(x.left, fmt.Sprintf("resource template %s of %s is not offered: %s offers the same template", t.URITemplate, srv.Name, other))
			continue
		}
		var ut mcp.URITemplate
		raw, _ := json.Marshal(t.URITemplate)
		if err := json.Unmarshal(raw, &ut); err != nil || ut.Template == nil {
			x.left = append(x.left, fmt.Sprintf("resource template %s of %s is not offered: it is not a URI template", t.URITemplate, srv.Name))
			continue
		}
		x.templateRoutes[t.URITemplate] = srv.Name
		x.templates = append(x.templates, mcp.ResourceTemplate{URITemplate: &ut, Name: t.Name, Description: t.Description, MIMEType: t.MIMEType})
	}
}
