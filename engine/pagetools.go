package engine

import (
	"github.com/mcpdeck/mcpdeck/engine/toolspage"
	"github.com/mcpdeck/mcpdeck/model/pins"
)

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
