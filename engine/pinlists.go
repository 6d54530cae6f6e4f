package engine

import (
	"slices"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine/toolspage"
	"github.com/mcpdeck/mcpdeck/model/pins"
	"github.com/mcpdeck/mcpdeck/model/scan"
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

// PinReport is how what a server tells a model stands against what the
// person accepted (engine/pins.go decides it; the UIs word it): the
// changes since its pins or from the repository's lock file, which of
// them are withheld, and what the scan found.
type PinReport struct {
	// Off says why the server's tools are not pinned ("" = pinned):
	// "pinTools": false in the person's user or local config.
	Off string `json:"off,omitempty"`
	// Note is a sentence about a "pinTools" that does not count.
	Note string `json:"note,omitempty"`
	// Changes are the items not as pinned (new, changed, removed, or not
	// as the lock file says), sorted by kind then name; a Withheld one is
	// not offered, called or read until the person accepts it.
	Changes []pins.Change `json:"changes,omitempty"`
	// Findings are the scan's (model/scan) of the live listing; Scanning
	// says a scan of it is still under way (its findings come later).
	Findings []scan.Finding `json:"findings,omitempty"`
	Scanning bool           `json:"scanning,omitempty"`
	// LockFile is the repository lock file whose entry for the server
	// applies ("" when none does); LockProblems what in it was ignored.
	LockFile     string   `json:"lockFile,omitempty"`
	LockProblems []string `json:"lockProblems,omitempty"`
	// Items are the live listing's pins (hashes, texts masked), for `mcp
	// lock`; Listed the kinds it listed.
	Items  []pins.Item        `json:"-"`
	Listed map[pins.Kind]bool `json:"-"`
}

// Withheld counts the items withheld until reviewed.
func (r PinReport) Withheld() int {
	n := 0
	for _, c := range r.Changes {
		if c.Withheld {
			n++
		}
	}
	return n
}

// Status is how the item kind/name stands ("" when as pinned).
func (r PinReport) Status(kind pins.Kind, name string) (pins.Status, bool) {
	for _, c := range r.Changes {
		if c.Kind == kind && c.Name == name {
			return c.Status, c.Withheld
		}
	}
	return "", false
}

// withholdLocked sets Withheld on the tools, prompts and templates the
// pins report withholds. The slices are shared with published snapshots,
// so a changed one is copied, never edited in place. Callers hold e.mu.
func (p *listParts) withholdLocked(en *entry) {
	withheld := map[pinKey]pins.Status{} // one lookup per item, however many changed
	for _, c := range en.pins.report.Changes {
		if c.Withheld {
			withheld[pinKey{c.Kind, c.Name}] = c.Status
		}
	}
	status := func(kind pins.Kind, name string) pins.Status { return withheld[pinKey{kind, name}] }
	en.lists.tools = marked(en.lists.tools, func(t *Tool) *pins.Status { return &t.Withheld }, func(t Tool) pins.Status { return status(pins.KindTool, t.Name) })
	en.lists.prompts = marked(en.lists.prompts, func(t *Prompt) *pins.Status { return &t.Withheld }, func(t Prompt) pins.Status { return status(pins.KindPrompt, t.Name) })
	en.lists.templates = marked(en.lists.templates, func(t *ResourceTemplate) *pins.Status { return &t.Withheld }, func(t ResourceTemplate) pins.Status { return status(pins.KindTemplate, t.Name) })
}

// marked is list with each item's Withheld field (field) set to want,
// copied when anything changes.
func marked[T any](list []T, field func(*T) *pins.Status, want func(T) pins.Status) []T {
	var out []T
	for i := range list {
		if w := want(list[i]); *field(&list[i]) != w {
			if out == nil {
				out = slices.Clone(list)
			}
			*field(&out[i]) = w
		}
	}
	if out == nil {
		return list
	}
	return out
}
