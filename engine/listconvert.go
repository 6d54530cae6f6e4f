package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpdeck/mcpdeck/engine/toolspage"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/pins"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// convertWire converts a server's tool as the stream reader read it
// (cleanTool); the input schema stays as the server sent it.
func convertWire(server string, t *toolspage.Wire) Tool {
	title := t.Title
	if title == "" {
		title = t.Annotations.Title
	}
	return cleanTool(server, Tool{
		Name:        t.Name,
		Title:       title,
		Description: t.Description,
		InputSchema: t.InputSchema,
		ReadOnly:    isTrue(t.Annotations.ReadOnlyHint),
		Destructive: isTrue(t.Annotations.DestructiveHint),
		OpenWorld:   isTrue(t.Annotations.OpenWorldHint),
	})
}

// The clean functions are the one place a server's list item is made fit
// to keep and show: text sanitized, descriptions capped, the exposed name
// computed. Live pages and lists remembered from an earlier run
// (remember.go) both pass them, so a file in the cache is trusted no
// more than the server it came from. Each is idempotent.

// cleanTool sanitizes t's title, caps its description and computes its
// exposed name. Its name and schema stay as sent: calls use them.
func cleanTool(server string, t Tool) Tool {
	t.ExposedName = model.ToolName(server, t.Name)
	t.Title = sanitize(t.Title)
	t.Description = capText(t.Description)
	return t
}

// cleanResource sanitizes r's name and caps its description.
func cleanResource(r Resource) Resource {
	r.Name, r.Description = sanitize(r.Name), capText(r.Description)
	return r
}

// cleanTemplate sanitizes t's name and caps its description.
func cleanTemplate(t ResourceTemplate) ResourceTemplate {
	t.Name, t.Description = sanitize(t.Name), capText(t.Description)
	return t
}

// cleanPrompt sanitizes p's name and caps its and its arguments'
// descriptions, in place: p's arguments are a slice no one shares yet.
func cleanPrompt(p Prompt) Prompt {
	p.Name, p.Description = sanitize(p.Name), capText(p.Description)
	for i := range p.Arguments {
		p.Arguments[i].Description = capText(p.Arguments[i].Description)
	}
	return p
}

func isTrue(b *bool) bool { return b != nil && *b }

// sanitize strips control and bidi characters from server text.
func sanitize(s string) string { return textsafe.Sanitize(s) }

// capText sanitizes and caps a description or instructions.
func capText(s string) string {
	if len(s) > 4*maxTextLen {
		s = s[:4*maxTextLen] // bound the work on 60 KB descriptions
	}
	return textsafe.Truncate(textsafe.Sanitize(s), maxTextLen)
}

// mark flags the tools permission rules deny and adds a problem for
// each exposed name two tools share. Callers hold e.mu.
func (p *listParts) mark(l *lists) {
	e := p.e
	if !l.fetched[listTools] {
		return
	}
	seen := make(map[string]string, len(l.tools))
	for i := range l.tools {
		t := &l.tools[i]
		if e.res != nil {
			allowed, rule := e.res.Permissions.Check(t.ExposedName)
			t.Denied = !allowed && rule != "" // no rule means "ask", not deny
		}
		if other, dup := seen[t.ExposedName]; dup {
			l.problems = append(l.problems, fmt.Sprintf("Tools %q and %q both expose as %s.", other, t.Name, t.ExposedName))
		} else {
			seen[t.ExposedName] = t.Name
		}
	}
}

// problems is the first list problem and all of them, redacted with
// en's secrets ("" when there are none). Callers hold e.mu.
func (p *listParts) problems(en *entry, l lists) (first, all string) {
	if len(l.problems) == 0 {
		return "", ""
	}
	all = en.redact(strings.Join(l.problems, "\n"))
	p.e.log.Warn("server lists", "server", en.srv.Name, "problems", all)
	return en.redact(l.problems[0]), all
}

// apply stores freshly fetched lists (marked by mark) on en, their texts
// masked (maskTexts). Callers hold e.mu.
func (p *listParts) apply(en *entry, l lists) {
	maskTexts(en.mask, &l)
	s := &en.lists
	if l.fetched[listTools] {
		s.tools = l.tools
		p.e.toolsDirty = true
		en.calls.forget()
		s.toolsAuthErr = l.authErr
	}
	if l.fetched[listResources] {
		s.resources = l.resources
	}
	if l.fetched[listTemplates] {
		s.templates = l.templates
	}
	if l.fetched[listPrompts] {
		s.prompts = l.prompts
	}
	if l.fetched[listSkills] {
		s.skills = l.skills
	}
	p.e.pins.listedLocked(en, l)
	p.e.memory.listedLocked(en)
}

// maskTexts masks, with the server's Masker, what freshly fetched lists
// hold only to be read (titles and descriptions), as its instructions are:
// a server that writes its own secret there ("uses key …") shows it in no
// snapshot, so in no listing, TUI screen or serve's tools/list. Names,
// URIs and schemas are what calls use and stay as sent. The slices are
// new (not yet in any snapshot), so they are edited in place.
func maskTexts(m *textsafe.Masker, l *lists) {
	for i := range l.tools {
		l.tools[i].Title, l.tools[i].Description = m.Mask(l.tools[i].Title), m.Mask(l.tools[i].Description)
	}
	for i := range l.resources {
		l.resources[i].Description = m.Mask(l.resources[i].Description)
	}
	for i := range l.templates {
		l.templates[i].Description = m.Mask(l.templates[i].Description)
	}
	for i := range l.prompts {
		pr := &l.prompts[i]
		pr.Description = m.Mask(pr.Description)
		for j := range pr.Arguments {
			pr.Arguments[j].Description = m.Mask(pr.Arguments[j].Description)
		}
	}
	for i := range l.skills {
		l.skills[i].Description = m.Mask(l.skills[i].Description)
	}
}

// permitLocked re-flags denied tools after the permission rules
// changed (permitted).
func (p *listParts) permitLocked(en *entry) {
	if t, changed := p.permitted(en.lists.tools); changed {
		en.lists.tools = t
	}
}

// permitted is tools flagged anew by the permission rules in force, and
// whether any flag changed. Tool slices are shared with published
// snapshots, so a changed list is a copy, never edited in place. Callers
// hold e.mu.
func (p *listParts) permitted(tools []Tool) ([]Tool, bool) {
	res := p.e.res
	if res == nil {
		return tools, false
	}
	var out []Tool
	for i, t := range tools {
		allowed, rule := res.Permissions.Check(t.ExposedName)
		if denied := !allowed && rule != ""; denied != t.Denied {
			if out == nil {
				out = slices.Clone(tools)
			}
			out[i].Denied = denied
		}
	}
	if out == nil {
		return tools, false
	}
	return out, true
}

// pageTools holds one tools/list page as the engine read it from the raw
// result (toolspage.Read), converted, in the page's order. Reading the raw
// result keeps each input schema byte for byte: mcp-go decodes a schema
// into a struct that keeps only type, properties, required,
// additionalProperties and $defs, so $schema, allOf/anyOf/oneOf,
// if/then/else and everything else would be lost (and re-encoding changes
// key order and number spelling).
type pageTools struct {
	tools []Tool
	items []pins.Item // each tool's pin, beside it
	pos   int
}

// add converts one tool of the page and pins it as sent.
func (p *pageTools) add(server string, h *pins.Hasher, w *toolspage.Wire) {
	p.tools = append(p.tools, convertWire(server, w))
	p.items = append(p.items, h.Tool(pinTool(w)))
}

// next returns the tool called name that follows the last one returned, in
// page order. mcp-go may have dropped tools from its page (an invalid
// x-mcp-header declaration), so entries before the match are skipped; a
// name listed twice gets each entry in turn. ok is false when the page was
// not read: the stream reader refused it and mcp-go decoded it instead.
func (p *pageTools) next(name string) (t Tool, item pins.Item, ok bool) {
	for i := p.pos; i < len(p.tools); i++ {
		if p.tools[i].Name == name {
			p.pos = i + 1
			t, p.tools[i] = p.tools[i], Tool{} // the page keeps no second reference
			item, p.items[i] = p.items[i], pins.Item{}
			return t, item, true
		}
	}
	return Tool{}, pins.Item{}, false
}
