package engine

import (
	"encoding/json"
)

// rawSchemas holds the input schemas of one tools/list page as the server
// sent them, byte for byte, in the page's order. mcp-go decodes a schema
// into a struct that keeps only type, properties, required,
// additionalProperties and $defs, so $schema, allOf/anyOf/oneOf,
// if/then/else and everything else would be lost (and re-encoding changes
// key order and number spelling): the engine keeps these bytes instead.
type rawSchemas struct {
	tools []rawTool
	pos   int
}

type rawTool struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// newRawSchemas reads the tools of a raw tools/list result. An unreadable or
// missing result gives an empty set: the caller falls back to mcp-go's form.
func newRawSchemas(result json.RawMessage) *rawSchemas {
	var page struct {
		Tools []rawTool `json:"tools"`
	}
	if len(result) == 0 || json.Unmarshal(result, &page) != nil {
		return &rawSchemas{}
	}
	return &rawSchemas{tools: page.Tools}
}

// next returns the raw schema of the next tool called name, in page order.
// mcp-go may have dropped tools from the page (an invalid x-mcp-header
// declaration), so entries before the match are skipped; a name listed twice
// gets each entry's own schema.
func (r *rawSchemas) next(name string) json.RawMessage {
	for i := r.pos; i < len(r.tools); i++ {
		if r.tools[i].Name == name {
			r.pos = i + 1
			return r.tools[i].InputSchema
		}
	}
	return nil
}
