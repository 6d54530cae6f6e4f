package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// openToolCall opens the argument form of one tool; submitting runs it.
func openToolCall(e *env, srv string, t engine.Tool) (modal, tea.Cmd) {
	title := "Call " + srv + " › " + t.Name
	if t.Denied {
		return newResultModal(e, title, callDoneMsg{
			err: fmt.Errorf("%s is denied by your permission rules (permissions.deny)", t.ExposedName),
		}, false), nil
	}
	sf, err := newSchemaForm(t.InputSchema)
	if err != nil {
		// a schema we cannot turn into fields: edit the whole argument object as JSON
		raw := json.RawMessage(`{"type":"object","properties":{"arguments":{"description":"the tool's arguments as a JSON object"}}}`)
		sf, _ = newSchemaForm(raw)
		sf.schema = nil
	}
	intro := []string{}
	if t.Description != "" {
		intro = append(intro, firstLine(t.Description))
	}
	if b := toolBadges(&t); b != "" {
		intro = append(intro, strings.TrimSpace(b))
	}
	fm := newFormModal(e, title, intro, sf)
	fm.verb = "call"
	fm.cancel = func() (modal, tea.Cmd) { return nil, nil }
	fm.submit = func(args map[string]any) (modal, tea.Cmd) {
		if sf.schema == nil { // raw-JSON fallback
			if obj, ok := args["arguments"].(map[string]any); ok {
				args = obj
			}
		}
		return startCall(e, title, func(ctx context.Context, progress func(engine.Progress)) ([]string, bool, error) {
			r, err := e.eng.CallTool(ctx, srv, t.Name, args, progress)
			if err != nil {
				return nil, true, err
			}
			return toolResultLines(r), r.IsError, nil
		})
	}
	return fm, fm.init()
}

// openToolPicker lets the person choose one of the server's tools.
func openToolPicker(e *env, s *engine.ServerSnapshot) (modal, tea.Cmd) {
	tools := s.Tools
	items := make([]pickItem, len(tools))
	for i := range tools {
		items[i] = pickItem{label: tools[i].Name + toolBadges(&tools[i]), desc: tools[i].Description}
	}
	name := s.Name
	return newPicker(e, "Call a tool of "+name, items, func(i int) (modal, tea.Cmd) {
		return openToolCall(e, name, tools[i])
	}), nil
}

// openResource reads a listed resource, or asks for the URI of a template.
func openResource(e *env, s *engine.ServerSnapshot, i int) (modal, tea.Cmd) {
	name := s.Name
	read := func(uri string) (modal, tea.Cmd) {
		return startCall(e, "Read "+name+" › "+uri, func(ctx context.Context, _ func(engine.Progress)) ([]string, bool, error) {
			r, err := e.eng.ReadResource(ctx, name, uri)
			if err != nil {
				return nil, true, err
			}
			return resourceLines(r), false, nil
		})
	}
	if i < len(s.Resources) {
		return read(s.Resources[i].URI)
	}
	t := s.Templates[i-len(s.Resources)]
	if tpl, sf := templateForm(t.URITemplate); tpl != nil {
		intro := []string{joinNonEmpty(" · ", t.URITemplate, t.Description)}
		fm := newFormModal(e, "Read "+name+" › "+t.Name, intro, sf)
		fm.verb = "read"
		fm.complete = completeFrom(e, name, engine.CompletionRef{Template: t.URITemplate})
		fm.cancel = func() (modal, tea.Cmd) { return nil, nil }
		fm.submit = func(args map[string]any) (modal, tea.Cmd) {
			uri, err := expandTemplate(tpl, args)
			if err != nil {
				fm.err = "the template " + t.URITemplate + " cannot be filled in: " + err.Error()
				return fm, nil
			}
			return read(uri)
		}
		return fm, fm.init()
	}
	// not a template we can read: the URI is edited whole
	schema, _ := json.Marshal(map[string]any{
		"type": "object", "required": []string{"uri"},
		"properties": map[string]any{"uri": map[string]any{
			"type": "string", "default": textsafe.SanitizeLine(t.URITemplate), // an editable field shows no controls
			"description": "fill in the {placeholders} of the template", "pattern": `^[^{}]*$`,
		}},
	})
	sf, _ := newSchemaForm(schema)
	fm := newFormModal(e, "Read "+name+" › "+t.Name, []string{t.Description}, sf)
	fm.verb = "read"
	fm.cancel = func() (modal, tea.Cmd) { return nil, nil }
	fm.submit = func(args map[string]any) (modal, tea.Cmd) { return read(fmt.Sprint(args["uri"])) }
	return fm, fm.init()
}

// openResourcePicker lets the person choose a resource or template.
func openResourcePicker(e *env, s *engine.ServerSnapshot) (modal, tea.Cmd) {
	var items []pickItem
	for _, r := range s.Resources {
		items = append(items, pickItem{label: r.Name + "  " + r.URI, desc: joinNonEmpty(" · ", r.MIMEType, r.Description)})
	}
	for _, t := range s.Templates {
		items = append(items, pickItem{label: t.Name + "  " + t.URITemplate + "  (template)", desc: t.Description})
	}
	snap := *s
	return newPicker(e, "Read a resource of "+s.Name, items, func(i int) (modal, tea.Cmd) {
		return openResource(e, &snap, i)
	}), nil
}

// openPrompt asks for a prompt's arguments and gets it.
func openPrompt(e *env, srv string, p engine.Prompt) (modal, tea.Cmd) {
	props := map[string]any{}
	var req []string
	order := make([]string, 0, len(p.Arguments))
	for _, a := range p.Arguments {
		props[a.Name] = map[string]any{"type": "string", "description": a.Description}
		if a.Required {
			req = append(req, a.Name)
		}
		order = append(order, a.Name)
	}
	sf, _ := newSchemaForm(orderedObjectSchema(order, props, req))
	title := "Get prompt " + srv + " › " + p.Name
	fm := newFormModal(e, title, []string{p.Description}, sf)
	fm.verb = "get prompt"
	fm.complete = completeFrom(e, srv, engine.CompletionRef{Prompt: p.Name})
	fm.cancel = func() (modal, tea.Cmd) { return nil, nil }
	fm.submit = func(map[string]any) (modal, tea.Cmd) {
		args, err := sf.StringValues()
		if err != nil {
			fm.err = err.Error()
			return fm, nil
		}
		return startCall(e, title, func(ctx context.Context, _ func(engine.Progress)) ([]string, bool, error) {
			r, err := e.eng.GetPrompt(ctx, srv, p.Name, args)
			if err != nil {
				return nil, true, err
			}
			return promptLines(r), false, nil
		})
	}
	return fm, fm.init()
}

// orderedObjectSchema builds an object schema whose properties keep the
// given order (a Go map would lose it), for forms made from prompt
// arguments and URI template variables.
func orderedObjectSchema(order []string, props map[string]any, req []string) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i, n := range order {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(n)
		v, _ := json.Marshal(props[n])
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteString(`}`)
	if len(req) > 0 {
		r, _ := json.Marshal(req)
		b.WriteString(`,"required":`)
		b.Write(r)
	}
	b.WriteString(`}`)
	return json.RawMessage(b.String())
}

// openPromptPicker lets the person choose one of the server's prompts.
func openPromptPicker(e *env, s *engine.ServerSnapshot) (modal, tea.Cmd) {
	prompts := s.Prompts
	items := make([]pickItem, len(prompts))
	for i, p := range prompts {
		items[i] = pickItem{label: p.Name, desc: p.Description}
	}
	name := s.Name
	return newPicker(e, "Get a prompt of "+name, items, func(i int) (modal, tea.Cmd) {
		return openPrompt(e, name, prompts[i])
	}), nil
}
