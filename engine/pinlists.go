package engine

import (
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine/toolspage"
	"github.com/mcpdeck/mcpdeck/model/pins"
)

// pinLists is what one fetch learned for pins: each list's items as the
// server sent them (hashed whole, texts bounded; masked where they are
// shown or saved) and the instructions when the connection is new. Built
// outside e.mu, as the lists are read.
type pinLists struct {
	items        [numLists][]pins.Item
	instructions *pins.Item // nil: not fetched, or none (instructionsSeen)
	// instructionsSeen says the instructions were read (a new connection).
	instructionsSeen bool
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

// instructionsOf pins the instructions of a new connection.
func instructionsOf(conn session, l *lists) {
	pl := &l.pinned
	pl.instructionsSeen = true
	if init := conn.Init(); init != nil {
		if it, ok := pins.NewHasher().Instructions(init.Instructions); ok {
			pl.instructions = &it
		}
	}
}

// masked is a copy of it with its texts masked by mask; the hash stays
// that of what was sent.
func masked(it pins.Item, mask func(string) string) pins.Item {
	it.Title, it.Description, it.Schema = mask(it.Title), mask(it.Description), mask(it.Schema)
	it.Output, it.Annotations = mask(it.Output), mask(it.Annotations)
	return it
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
