package engine

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// convertTool converts a tool as mcp-go decoded it, for a page the stream
// reader refused (readToolsPage) and left to mcp-go.
func convertTool(server string, t mcp.Tool) Tool {
	w := wireOf(t)
	return convertWire(server, &w)
}

// wireOf is a tool as mcp-go decoded it in the stream reader's form: its
// raw input schema, else mcp-go's decoded one encoded again.
func wireOf(t mcp.Tool) wireTool {
	w := wireTool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: t.RawInputSchema}
	if len(w.InputSchema) == 0 {
		w.InputSchema, _ = json.Marshal(t.InputSchema)
	}
	w.Annotations.Title = t.Annotations.Title
	w.Annotations.ReadOnlyHint = t.Annotations.ReadOnlyHint
	w.Annotations.DestructiveHint = t.Annotations.DestructiveHint
	w.Annotations.OpenWorldHint = t.Annotations.OpenWorldHint
	return w
}

// convertWire sanitizes a server's tool, caps its description and computes
// its exposed name; the input schema stays as the server sent it.
func convertWire(server string, t *wireTool) Tool {
	title := t.Title
	if title == "" {
		title = t.Annotations.Title
	}
	return Tool{
		Name:        t.Name,
		ExposedName: model.ToolName(server, t.Name),
		Title:       sanitize(title),
		Description: capText(t.Description),
		InputSchema: t.InputSchema,
		ReadOnly:    isTrue(t.Annotations.ReadOnlyHint),
		Destructive: isTrue(t.Annotations.DestructiveHint),
		OpenWorld:   isTrue(t.Annotations.OpenWorldHint),
	}
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

// markLists flags the tools permission rules deny and adds a problem for
// each exposed name two tools share. Callers hold e.mu.
func (e *Engine) markLists(l *lists) {
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

// listProblems is the first list problem and all of them, redacted with
// en's secrets ("" when there are none). Callers hold e.mu.
func (e *Engine) listProblems(en *entry, l lists) (first, all string) {
	if len(l.problems) == 0 {
		return "", ""
	}
	all = en.redact(strings.Join(l.problems, "\n"))
	e.log.Warn("server lists", "server", en.srv.Name, "problems", all)
	return en.redact(l.problems[0]), all
}

// applyLists stores freshly fetched lists (marked by markLists) on en.
// Callers hold e.mu.
func (e *Engine) applyLists(en *entry, l lists) {
	if l.fetched[listTools] {
		en.s.Tools = l.tools
		e.toolsDirty = true
		en.schemas = nil
		en.toolsAuthErr = l.authErr
	}
	if l.fetched[listResources] {
		en.s.Resources = l.resources
	}
	if l.fetched[listTemplates] {
		en.s.Templates = l.templates
	}
	if l.fetched[listPrompts] {
		en.s.Prompts = l.prompts
	}
	if l.fetched[listSkills] {
		en.s.Skills = l.skills
	}
}
