package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/form"
	"github.com/mcpdeck/mcpdeck/ui/picker"
	"github.com/mcpdeck/mcpdeck/ui/results"
	"github.com/mcpdeck/mcpdeck/ui/status"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// openToolCall opens the argument form of one tool; submitting runs it.
func openToolCall(e *env, srv string, t engine.Tool, deniedBy []model.Problem) (tuikit.Modal, tea.Cmd) {
	title := "Call " + srv + " › " + t.Name
	if t.Denied && len(deniedBy) > 0 {
		return newResultModal(e, title, callDoneMsg{
			err: &engine.DeniedError{Tool: t.ExposedName, Rule: status.ToolsDenied(deniedBy), Unreadable: true},
		}, false), nil
	}
	if t.Denied {
		return newResultModal(e, title, callDoneMsg{
			err: fmt.Errorf("%s is denied by your permission rules (permissions.deny)", t.ExposedName),
		}, false), nil
	}
	sf, err := form.Parse(t.InputSchema)
	whole := err != nil
	if whole {
		// a schema we cannot turn into fields: edit the whole argument object as JSON
		raw := json.RawMessage(`{"type":"object","properties":{"arguments":{"description":"the tool's arguments as a JSON object"}}}`)
		sf, _ = form.Parse(raw)
		sf.SkipSchemaCheck()
	}
	intro := []string{}
	if t.Description != "" {
		intro = append(intro, tuikit.FirstLine(t.Description))
	}
	if b := toolBadges(&t, deniedBy); b != "" {
		intro = append(intro, strings.TrimSpace(b))
	}
	fm := form.New(e.Env, title, intro, sf)
	fm.Verb = "call"
	fm.Submit = func(args map[string]any) (tuikit.Modal, tea.Cmd) {
		if whole { // raw-JSON fallback
			if obj, ok := args["arguments"].(map[string]any); ok {
				args = obj
			}
		}
		return startCall(e, title, func(ctx context.Context, progress func(engine.Progress)) ([]string, bool, error) {
			r, err := e.eng.CallTool(ctx, srv, t.Name, args, progress)
			if err != nil {
				return nil, true, err
			}
			return results.ToolResult(r), r.IsError, nil
		})
	}
	return fm, fm.Init()
}

// openToolPicker lets the person choose one of the server's tools.
func openToolPicker(e *env, s *engine.ServerSnapshot) (tuikit.Modal, tea.Cmd) {
	tools := s.Tools
	items := make([]picker.Item, len(tools))
	for i := range tools {
		items[i] = picker.Item{Label: tools[i].Name + toolBadges(&tools[i], s.ToolsDeniedBy), Desc: tools[i].Description}
	}
	name, deniedBy := s.Name, s.ToolsDeniedBy
	return picker.New(e.Env, "Call a tool of "+name, items, func(i int) (tuikit.Modal, tea.Cmd) {
		return openToolCall(e, name, tools[i], deniedBy)
	}), nil
}

// openResource reads a listed resource, or asks for the URI of a template.
func openResource(e *env, s *engine.ServerSnapshot, i int) (tuikit.Modal, tea.Cmd) {
	name := s.Name
	read := func(uri string) (tuikit.Modal, tea.Cmd) {
		return startCall(e, "Read "+name+" › "+uri, func(ctx context.Context, _ func(engine.Progress)) ([]string, bool, error) {
			r, err := e.eng.ReadResource(ctx, name, uri)
			if err != nil {
				return nil, true, err
			}
			return results.Resource(r), false, nil
		})
	}
	if i < len(s.Resources) {
		return read(s.Resources[i].URI)
	}
	t := s.Templates[i-len(s.Resources)]
	if tpl, sf := form.Template(t.URITemplate); tpl != nil {
		intro := []string{tuikit.JoinNonEmpty(" · ", t.URITemplate, t.Description)}
		fm := form.New(e.Env, "Read "+name+" › "+t.Name, intro, sf)
		fm.Verb = "read"
		fm.Complete = completeFrom(e, name, engine.CompletionRef{Template: t.URITemplate})
		fm.Submit = func(args map[string]any) (tuikit.Modal, tea.Cmd) {
			uri, err := form.Expand(tpl, args)
			if err != nil {
				return fm.Fail("the template " + t.URITemplate + " cannot be filled in: " + err.Error())
			}
			return read(uri)
		}
		return fm, fm.Init()
	}
	// not a template we can read: the URI is edited whole
	schema, _ := json.Marshal(map[string]any{
		"type": "object", "required": []string{"uri"},
		"properties": map[string]any{"uri": map[string]any{
			"type": "string", "default": textsafe.SanitizeLine(t.URITemplate), // an editable field shows no controls
			"description": "fill in the {placeholders} of the template", "pattern": `^[^{}]*$`,
		}},
	})
	sf, _ := form.Parse(schema)
	fm := form.New(e.Env, "Read "+name+" › "+t.Name, []string{t.Description}, sf)
	fm.Verb = "read"
	fm.Submit = func(args map[string]any) (tuikit.Modal, tea.Cmd) { return read(fmt.Sprint(args["uri"])) }
	return fm, fm.Init()
}

// openResourcePicker lets the person choose a resource or template.
func openResourcePicker(e *env, s *engine.ServerSnapshot) (tuikit.Modal, tea.Cmd) {
	var items []picker.Item
	for _, r := range s.Resources {
		items = append(items, picker.Item{Label: r.Name + "  " + r.URI, Desc: tuikit.JoinNonEmpty(" · ", r.MIMEType, r.Description)})
	}
	for _, t := range s.Templates {
		items = append(items, picker.Item{Label: t.Name + "  " + t.URITemplate + "  (template)", Desc: t.Description})
	}
	snap := *s
	return picker.New(e.Env, "Read a resource of "+s.Name, items, func(i int) (tuikit.Modal, tea.Cmd) {
		return openResource(e, &snap, i)
	}), nil
}

// openPrompt asks for a prompt's arguments and gets it.
func openPrompt(e *env, srv string, p engine.Prompt) (tuikit.Modal, tea.Cmd) {
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
	sf, _ := form.Parse(form.ObjectSchema(order, props, req))
	title := "Get prompt " + srv + " › " + p.Name
	fm := form.New(e.Env, title, []string{p.Description}, sf)
	fm.Verb = "get prompt"
	fm.Complete = completeFrom(e, srv, engine.CompletionRef{Prompt: p.Name})
	fm.Submit = func(map[string]any) (tuikit.Modal, tea.Cmd) {
		args, err := sf.StringValues()
		if err != nil {
			return fm.Fail(err.Error())
		}
		return startCall(e, title, func(ctx context.Context, _ func(engine.Progress)) ([]string, bool, error) {
			r, err := e.eng.GetPrompt(ctx, srv, p.Name, args)
			if err != nil {
				return nil, true, err
			}
			return results.Prompt(r), false, nil
		})
	}
	return fm, fm.Init()
}

// completeFrom is the completer of ref on server: engine.Complete, which
// asks only a server that advertises completions.
func completeFrom(e *env, server string, ref engine.CompletionRef) form.Completer {
	return func(ctx context.Context, field string, others map[string]string) ([]string, error) {
		return e.eng.Complete(ctx, server, ref, field, "", others)
	}
}

// openPromptPicker lets the person choose one of the server's prompts.
func openPromptPicker(e *env, s *engine.ServerSnapshot) (tuikit.Modal, tea.Cmd) {
	prompts := s.Prompts
	items := make([]picker.Item, len(prompts))
	for i, p := range prompts {
		items[i] = picker.Item{Label: p.Name, Desc: p.Description}
	}
	name := s.Name
	return picker.New(e.Env, "Get a prompt of "+name, items, func(i int) (tuikit.Modal, tea.Cmd) {
		return openPrompt(e, name, prompts[i])
	}), nil
}
