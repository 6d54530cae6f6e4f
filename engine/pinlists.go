package engine

import (
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine/toolspage"
	"github.com/mcpdeck/mcpdeck/model/pins"
	"github.com/mcpdeck/mcpdeck/model/scan"
)

// pinLists is what one fetch learned for pins: each list's items as the
// server sent them (hashed whole; texts bounded, then masked), the
// instructions when the connection is new, and the scan's findings of
// those items. Built outside e.mu: hashing and scanning hundreds of tools
// takes time.
type pinLists struct {
	items        [numLists][]pins.Item
	instructions *pins.Item // nil: not fetched, or none (instructionsSeen)
	// instructionsSeen says the instructions were read (a new connection).
	instructionsSeen bool
	findings         []scan.Finding
	scanned          bool
}

// pinTool is a tool as sent, for its pin.
func pinTool(w *toolspage.Wire) pins.Tool {
	return pins.Tool{
		Name: w.Name, Title: w.Title, Description: w.Description,
		InputSchema: w.InputSchema, OutputSchema: w.OutputSchema, Annotations: w.RawAnnotations,
	}
}

// pinPrompt is a prompt as sent, for its pin.
func pinPrompt(x mcp.Prompt) pins.Prompt {
	p := pins.Prompt{Name: x.Name, Title: x.Title, Description: x.Description}
	for _, a := range x.Arguments {
		p.Arguments = append(p.Arguments, pins.Argument{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
	}
	return p
}

// allItems is every item the fetch pinned.
func (pl *pinLists) allItems() []pins.Item {
	var out []pins.Item
	for _, its := range pl.items {
		out = append(out, its...)
	}
	if pl.instructions != nil {
		out = append(out, *pl.instructions)
	}
	return out
}

// kindOf is the pins kind of a list.
func kindOf(k listKind) (pins.Kind, bool) {
	switch k {
	case listTools:
		return pins.KindTool, true
	case listPrompts:
		return pins.KindPrompt, true
	case listTemplates:
		return pins.KindTemplate, true
	case listResources, listSkills, numLists:
	}
	return "", false
}

// prepare finishes a fetch's pins outside e.mu: the instructions of a new
// connection (conn, nil for a refetch), texts masked with the server's
// secrets, and the scan.
func (p *pinParts) prepare(server string, conn session, l *lists) {
	pl := &l.pinned
	if conn != nil {
		pl.instructionsSeen = true
		if init := conn.Init(); init != nil {
			if it, ok := pins.NewHasher().Instructions(init.Instructions); ok {
				pl.instructions = &it
			}
		}
	}
	var mask func(string) string
	p.e.ifEntry(server, func(en *entry) { mask = en.mask.Mask })
	if mask == nil {
		return
	}
	for k := range pl.items {
		maskItems(pl.items[k], mask)
	}
	if pl.instructions != nil {
		pl.instructions.Description = mask(pl.instructions.Description)
	}
	pl.findings = scan.Server(server, pl.allItems(), scan.Context{Tools: p.offeredBy})
	pl.scanned = true
}

// maskItems masks the texts of items (new slices, not yet shared) in
// place; the hashes stay those of what was sent.
func maskItems(items []pins.Item, mask func(string) string) {
	for i := range items {
		it := &items[i]
		it.Title, it.Description, it.Schema = mask(it.Title), mask(it.Description), mask(it.Schema)
		it.Output, it.Annotations = mask(it.Output), mask(it.Annotations)
	}
}

// offeredBy names the servers whose last listing offers a tool called
// name, for the scan's shadowing rule.
func (p *pinParts) offeredBy(name string) []string {
	var out []string
	p.e.locked(func() {
		for _, en := range p.e.order {
			if _, ok := en.lists.tool(name); ok {
				out = append(out, en.srv.Name)
			}
		}
	})
	return out
}
