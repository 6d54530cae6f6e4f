package engine

import (
	"slices"

	"github.com/mcpdeck/mcpdeck/model/pins"
)

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
