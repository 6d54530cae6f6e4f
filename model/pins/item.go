package pins

import (
	"encoding/json"
	"unicode/utf8"
)

// Kind is what sort of thing an Item is.
type Kind string

// The kinds of items a server tells a model.
const (
	KindTool         Kind = "tool"
	KindPrompt       Kind = "prompt"
	KindTemplate     Kind = "resource template"
	KindInstructions Kind = "instructions"
)

// Kinds are every Kind, in the order reports list them.
var Kinds = [...]Kind{KindTool, KindPrompt, KindTemplate, KindInstructions}

// Limits on the texts an Item keeps for a diff; the hash covers the whole.
const (
	MaxText   = 8 << 10  // a title or description, bytes
	MaxSchema = 16 << 10 // one schema in canonical JSON, bytes
)

// Item is one thing a server tells a model, pinned: its hash covers every
// field the model reads, and the texts (bounded, as the server sent them:
// hostile, to be escaped where shown) let a change be shown. Reviewed is
// set only in a Record, on an item the person accepted in a review.
type Item struct {
	Kind Kind   `json:"kind"`
	Name string `json:"name"`
	Hash string `json:"hash"`
	// Title and Description as sent; Schema is a tool's input schema, a
	// prompt's arguments or a template's URI template and MIME type, as
	// canonical JSON; Output a tool's output schema, Annotations its
	// annotations.
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Schema      string `json:"schema,omitempty"`
	Output      string `json:"output,omitempty"`
	Annotations string `json:"annotations,omitempty"`
	// Cut says a text was longer than the limits and only its start is
	// kept (the hash still covers it whole).
	Cut      bool `json:"cut,omitempty"`
	Reviewed bool `json:"reviewed,omitempty"`
}

// key identifies an item within one server's listing.
type key struct {
	kind Kind
	name string
}

func (it Item) key() key { return key{it.Kind, it.Name} }

// Tool is a tool as the server sent it.
type Tool struct {
	Name, Title, Description  string
	InputSchema, OutputSchema json.RawMessage
	Annotations               json.RawMessage
}

// Prompt is a prompt as the server sent it.
type Prompt struct {
	Name, Title, Description string
	Arguments                []Argument
}

// Argument is one argument a prompt takes.
type Argument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// Template is a resource template as the server sent it.
type Template struct {
	Name, Title, Description, URITemplate, MIMEType string
}

// clip keeps at most n bytes of s, never splitting a UTF-8 sequence, and
// reports whether it cut.
func clip(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}
