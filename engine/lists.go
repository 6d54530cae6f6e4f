package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
	"github.com/mcpdeck/mcpdeck/engine/lock"
	"github.com/mcpdeck/mcpdeck/engine/toolspage"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/pins"
	"github.com/mcpdeck/mcpdeck/transports"
)

// listKind names one of the lists a server offers.
type listKind int

const (
	listTools listKind = iota
	listResources
	listTemplates
	listPrompts
	listSkills
	numLists
)

func (k listKind) String() string {
	switch k {
	case listTools:
		return "tools"
	case listResources:
		return "resources"
	case listTemplates:
		return "resource templates"
	case listPrompts:
		return "prompts"
	case listSkills:
		return "skills"
	case numLists:
	}
	return "lists"
}

// listParts fetches a server's lists (at connect and when the server says
// one changed), marks denied and colliding tools and keeps them per server
// (listState).
type listParts struct{ e *Engine }

// listState is what lists keep per server: the lists of the live
// connection and the refetches under way.
type listState struct {
	tools     []Tool
	resources []Resource
	templates []ResourceTemplate
	prompts   []Prompt
	skills    []Skill // listed only; files are read on LoadSkill
	// toolsAuthErr is the authorization refusal (401/403) of the last tools
	// list, nil when it was given: a call then reports it, not "no such tool".
	toolsAuthErr error
	refetching   [numLists]bool // a list refetch is running
	dirty        [numLists]bool // list_changed arrived during the refetch
}

// forget drops the lists of a connection that ended.
func (l *listState) forget() {
	l.tools, l.resources, l.templates, l.prompts, l.skills = nil, nil, nil, nil, nil
}

// tool finds a tool by its name or its exposed name.
func (l *listState) tool(name string) (Tool, bool) {
	for _, t := range l.tools {
		if t.Name == name || t.ExposedName == name {
			return t, true
		}
	}
	return Tool{}, false
}

// missingArguments lists the required arguments of prompt that args lacks.
func (l *listState) missingArguments(prompt string, args map[string]string) []string {
	var missing []string
	for _, p := range l.prompts {
		if p.Name != prompt {
			continue
		}
		for _, a := range p.Arguments {
			if _, ok := args[a.Name]; a.Required && !ok {
				missing = append(missing, a.Name)
			}
		}
	}
	return missing
}

// lists is what one fetch learned. A nil slice for a kind not fetched.
type lists struct {
	fetched   [numLists]bool
	tools     []Tool
	resources []Resource
	templates []ResourceTemplate
	prompts   []Prompt
	skills    []Skill
	problems  []string // non-fatal: one list failed or was cut short
	// fatal ends the connection: the connect deadline passed while listing,
	// or a list (one page, or all pages together) exceeded the size limit.
	fatal error
	size  int // bytes kept from the list being fetched, cursors included
	// authErr is a list refused for lack of authorization (401/403)
	authErr error
	// pinned is what a fetch learned for pins: the items of each list as
	// sent, the instructions (pinlists.go).
	pinned pinLists
}

// offered reports which lists the server declares.
func offered(conn session) [numLists]bool {
	var k [numLists]bool
	init := conn.Init()
	if init == nil {
		return k
	}
	caps := init.Capabilities
	k[listTools] = caps.Tools != nil
	k[listResources] = caps.Resources != nil
	k[listTemplates] = caps.Resources != nil
	k[listPrompts] = caps.Prompts != nil
	k[listSkills] = offersSkills(init)
	return k
}

// fetchAll fetches every offered list in parallel.
func (p *listParts) fetchAll(ctx context.Context, srv model.Server, conn session) lists {
	var out lists
	var mu sync.Mutex
	var wg sync.WaitGroup
	want := offered(conn)
	for k := range numLists {
		if !want[k] {
			continue
		}
		wg.Go(func() {
			one := p.fetchList(ctx, srv.Name, conn.Client(), k)
			lock.With(&mu, func() { mergeList(&out, one, k) })
		})
	}
	wg.Wait()
	if out.fatal != nil {
		return out
	}
	instructionsOf(conn, &out)
	select {
	case <-conn.Done(): // e.g. a page over the limit, which ended the connection
		if err := conn.Err(); err != nil {
			if cls, _ := p.e.errs.classify(err); cls == lifecycle.ClassTooLarge {
				out.fatal = err
				return out
			}
		}
	default:
	}
	if ctx.Err() != nil && len(out.problems) > 0 {
		out.fatal = fmt.Errorf("listing capabilities: %w", ctx.Err())
	}
	return out
}

// mergeList copies kind k of src into dst.
func mergeList(dst *lists, src lists, k listKind) {
	dst.fetched[k] = true
	dst.pinned.items[k] = src.pinned.items[k]
	dst.problems = append(dst.problems, src.problems...)
	if dst.fatal == nil {
		dst.fatal = src.fatal
	}
	switch k {
	case listTools:
		dst.tools = src.tools
		dst.authErr = src.authErr
	case listResources:
		dst.resources = src.resources
	case listTemplates:
		dst.templates = src.templates
	case listPrompts:
		dst.prompts = src.prompts
	case listSkills:
		dst.skills = src.skills
	case numLists:
	}
}

// errTooMany stops paging once a list reaches maxListItems.
var errTooMany = errors.New("too many items")

// fetchList pages through one list, bounded by maxListItems and guarded
// against cursors that repeat. Problems are sentences, not raw errors. A
// list over the size limit is fatal: a page the transport refused, or pages
// that together keep more than Options.MaxMessageSize bytes, so a server
// cannot pile up memory a page at a time.
func (p *listParts) fetchList(ctx context.Context, server string, c *client.Client, k listKind) lists {
	e := p.e
	var out lists
	seen := map[mcp.Cursor]bool{}
	var cursor mcp.Cursor
	for {
		next, err := fetchPage(ctx, server, c, k, cursor, &out)
		if errors.Is(err, errTooMany) {
			out.problems = append(out.problems, fmt.Sprintf("The server lists more than %d %s; showing the first %d.", maxListItems, k, maxListItems))
			return out
		}
		if err != nil {
			switch cls, _ := e.errs.classify(err); cls {
			case lifecycle.ClassTooLarge:
				out.fatal = err
				return out
			case lifecycle.ClassAuth:
				out.authErr = err
			default:
			}
			out.problems = append(out.problems, fmt.Sprintf("Listing %s failed: %s.", k, e.errs.humanize(err)))
			return out
		}
		if out.size += len(next); out.size > e.opts.MaxMessageSize {
			out.fatal = &transports.MessageTooLargeError{Server: server, Limit: e.opts.MaxMessageSize, What: "a " + k.String() + " list"}
			return out
		}
		if next == "" {
			return out
		}
		if seen[next] {
			out.problems = append(out.problems, fmt.Sprintf("Listing %s: the server repeated a page cursor; stopped.", k))
			return out
		}
		seen[next] = true
		cursor = next
	}
}

// fetchPage fetches one page into out and returns the next cursor.
func fetchPage(ctx context.Context, server string, c *client.Client, k listKind, cursor mcp.Cursor, out *lists) (mcp.Cursor, error) {
	switch k {
	case listTools:
		return fetchToolsPage(ctx, server, c, cursor, out)
	case listResources:
		return fetchResourcesPage(ctx, c, cursor, out)
	case listTemplates:
		return fetchTemplatesPage(ctx, c, cursor, out)
	case listPrompts:
		return fetchPromptsPage(ctx, c, cursor, out)
	case listSkills:
		return fetchSkillsPage(ctx, c, cursor, out)
	case numLists:
	}
	return "", nil
}

// listFull reports whether a list already holds maxListItems items.
func listFull(n int) bool { return n >= maxListItems }

// fetchToolsPage reads one tools/list page through the one tools page
// reader (toolspage), so mcp-go keeps only a slim copy.
func fetchToolsPage(ctx context.Context, server string, c *client.Client, cursor mcp.Cursor, out *lists) (mcp.Cursor, error) {
	req := mcp.ListToolsRequest{}
	req.Params.Cursor = cursor
	var page pageTools
	h := pins.NewHasher()
	cctx, _ := toolspage.Take(ctx, func() { page = pageTools{} }, func(w *toolspage.Wire) { page.add(server, h, w) })
	r, err := c.ListToolsByPage(cctx, req)
	if err != nil {
		return "", err
	}
	for _, t := range r.Tools {
		if listFull(len(out.tools)) {
			return "", errTooMany
		}
		ct, item, ok := page.next(t.Name)
		if !ok {
			w := toolspage.FromMCP(t)
			ct, item = convertWire(server, &w), h.Tool(pinTool(&w))
		}
		out.size += len(ct.Name) + len(ct.ExposedName) + len(ct.Title) + len(ct.Description) + len(ct.InputSchema)
		out.tools = append(out.tools, ct)
		out.pinned.items[listTools] = append(out.pinned.items[listTools], item)
	}
	return r.NextCursor, nil
}

// fetchResourcesPage reads one resources/list page.
func fetchResourcesPage(ctx context.Context, c *client.Client, cursor mcp.Cursor, out *lists) (mcp.Cursor, error) {
	req := mcp.ListResourcesRequest{}
	req.Params.Cursor = cursor
	r, err := c.ListResourcesByPage(ctx, req)
	if err != nil {
		return "", err
	}
	for _, x := range r.Resources {
		if listFull(len(out.resources)) {
			return "", errTooMany
		}
		r := cleanResource(Resource{URI: x.URI, Name: x.Name, Description: x.Description, MIMEType: x.MIMEType})
		out.size += len(r.URI) + len(r.Name) + len(r.Description) + len(r.MIMEType)
		out.resources = append(out.resources, r)
	}
	return r.NextCursor, nil
}

// fetchTemplatesPage reads one resources/templates/list page.
func fetchTemplatesPage(ctx context.Context, c *client.Client, cursor mcp.Cursor, out *lists) (mcp.Cursor, error) {
	h := pins.NewHasher()
	req := mcp.ListResourceTemplatesRequest{}
	req.Params.Cursor = cursor
	r, err := c.ListResourceTemplatesByPage(ctx, req)
	if err != nil {
		return "", err
	}
	for _, x := range r.ResourceTemplates {
		if listFull(len(out.templates)) {
			return "", errTooMany
		}
		tmpl := ""
		if x.URITemplate != nil {
			tmpl = x.URITemplate.Raw()
		}
		rt := cleanTemplate(ResourceTemplate{URITemplate: tmpl, Name: x.Name, Description: x.Description, MIMEType: x.MIMEType})
		out.pinned.items[listTemplates] = append(out.pinned.items[listTemplates], h.Template(pins.Template{
			Name: x.Name, Title: x.Title, Description: x.Description, URITemplate: tmpl, MIMEType: x.MIMEType,
		}))
		out.size += len(rt.URITemplate) + len(rt.Name) + len(rt.Description) + len(rt.MIMEType)
		out.templates = append(out.templates, rt)
	}
	return r.NextCursor, nil
}

// fetchPromptsPage reads one prompts/list page.
func fetchPromptsPage(ctx context.Context, c *client.Client, cursor mcp.Cursor, out *lists) (mcp.Cursor, error) {
	h := pins.NewHasher()
	req := mcp.ListPromptsRequest{}
	req.Params.Cursor = cursor
	r, err := c.ListPromptsByPage(ctx, req)
	if err != nil {
		return "", err
	}
	for _, x := range r.Prompts {
		if listFull(len(out.prompts)) {
			return "", errTooMany
		}
		p := Prompt{Name: x.Name, Description: x.Description}
		for _, a := range x.Arguments {
			p.Arguments = append(p.Arguments, PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		p = cleanPrompt(p)
		out.size += len(p.Name) + len(p.Description)
		for _, a := range p.Arguments {
			out.size += len(a.Name) + len(a.Description)
		}
		out.prompts = append(out.prompts, p)
		out.pinned.items[listPrompts] = append(out.pinned.items[listPrompts], h.Prompt(pinPrompt(x)))
	}
	return r.NextCursor, nil
}
