// Package demo holds the servers of `mcpdeck demo`: a few healthy in-process
// servers with tools, resources and prompts, one that asks for a form
// elicitation, and the stdio servers (served by `mcpdeck demo-server NAME`
// from the same binary) — one of which crashes every ~20 s so reconnection
// with backoff can be watched.
package demo

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model/lock"
)

// Builtins returns the in-process servers by name, for engine Options.Builtins.
func Builtins() map[string]func() *server.MCPServer {
	return map[string]func() *server.MCPServer{
		"notes":       Notes,
		"calculator":  Calculator,
		"weather-sim": Weather,
		"survey":      Survey,
		"webmail":     Mailer,
	}
}

// hints sets every annotation explicitly: unset, MCP assumes a tool is
// destructive and open-world.
func hints(readOnly, destructive, openWorld bool) mcp.ToolOption {
	return func(t *mcp.Tool) {
		mcp.WithReadOnlyHintAnnotation(readOnly)(t)
		mcp.WithDestructiveHintAnnotation(destructive)(t)
		mcp.WithOpenWorldHintAnnotation(openWorld)(t)
	}
}

// notebook is the notes server's in-memory state.
type notebook struct {
	mu    sync.Mutex
	notes map[string]string
}

// Notes is a small note store: tools to add, list and delete notes, a
// resource listing them, a template reading one, and a prompt.
func Notes() *server.MCPServer {
	nb := &notebook{notes: map[string]string{"welcome": "Welcome to the mcpdeck demo.", "keys": "Press ? for every key."}}
	s := server.NewMCPServer("notes", "1.0.0",
		server.WithToolCapabilities(true), server.WithResourceCapabilities(false, true), server.WithPromptCapabilities(true),
		server.WithInstructions("A scratch pad. Use add_note to store a note and list_notes to read them back."))
	s.AddTool(mcp.NewTool("add_note", mcp.WithDescription("Store a note under a title"), hints(false, false, false),
		mcp.WithString("title", mcp.Required(), mcp.Description("short title")),
		mcp.WithString("body", mcp.Required(), mcp.Description("the note")),
		mcp.WithArray("tags", mcp.WithStringItems(), mcp.Description("labels"))),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			title := r.GetString("title", "")
			var n int
			lock.With(&nb.mu, func() {
				nb.notes[title] = r.GetString("body", "")
				n = len(nb.notes)
			})
			return mcp.NewToolResultText(fmt.Sprintf("stored %q (%d notes)", title, n)), nil
		})
	s.AddTool(mcp.NewTool("list_notes", mcp.WithDescription("List every note"),
		mcp.WithTitleAnnotation("List notes"), hints(true, false, false)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(nb.list()), nil
		})
	s.AddTool(mcp.NewTool("delete_note", mcp.WithDescription("Delete a note"),
		hints(false, true, false), mcp.WithString("title", mcp.Required())),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			title := r.GetString("title", "")
			var ok bool
			lock.With(&nb.mu, func() {
				_, ok = nb.notes[title]
				delete(nb.notes, title)
			})
			if !ok {
				return mcp.NewToolResultError("no note called " + title), nil
			}
			return mcp.NewToolResultText("deleted " + title), nil
		})
	s.AddResource(mcp.NewResource("notes://all", "all notes", mcp.WithMIMEType("text/plain")),
		func(_ context.Context, r mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: r.Params.URI, MIMEType: "text/plain", Text: nb.list()}}, nil
		})
	s.AddResourceTemplate(mcp.NewResourceTemplate("notes://{title}", "note by title", mcp.WithTemplateDescription("one note")),
		func(_ context.Context, r mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			title := strings.TrimPrefix(r.Params.URI, "notes://")
			var body string
			var ok bool
			lock.With(&nb.mu, func() { body, ok = nb.notes[title] })
			if !ok {
				return nil, fmt.Errorf("no note called %s", title)
			}
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: r.Params.URI, MIMEType: "text/plain", Text: body}}, nil
		})
	s.AddPrompt(mcp.NewPrompt("summarize", mcp.WithPromptDescription("Summarize the notes about a topic"),
		mcp.WithArgument("topic", mcp.RequiredArgument(), mcp.ArgumentDescription("what to summarize")),
		mcp.WithArgument("style", mcp.ArgumentDescription("bullet points, prose…"))),
		func(_ context.Context, r mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			text := "Summarize my notes about " + r.Params.Arguments["topic"]
			if st := r.Params.Arguments["style"]; st != "" {
				text += " as " + st
			}
			return mcp.NewGetPromptResult("summary request", []mcp.PromptMessage{
				mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(text+":\n"+nb.list())),
			}), nil
		})
	return s
}

func (nb *notebook) list() string {
	var b strings.Builder
	lock.With(&nb.mu, func() {
		titles := make([]string, 0, len(nb.notes))
		for t := range nb.notes {
			titles = append(titles, t)
		}
		sort.Strings(titles)
		for _, t := range titles {
			fmt.Fprintf(&b, "- %s: %s\n", t, nb.notes[t])
		}
	})
	return b.String()
}

// Calculator does arithmetic, and counts slowly with progress notifications
// so the TUI's progress display and cancel (esc) can be tried.
func Calculator() *server.MCPServer {
	s := server.NewMCPServer("calculator", "1.2.0", server.WithToolCapabilities(false), server.WithPromptCapabilities(false))
	s.AddTool(mcp.NewTool("calculate", mcp.WithDescription("Apply an operation to two numbers"),
		hints(true, false, false),
		mcp.WithString("op", mcp.Required(), mcp.Enum("add", "subtract", "multiply", "divide"), mcp.DefaultString("add")),
		mcp.WithNumber("a", mcp.Required()), mcp.WithNumber("b", mcp.Required())),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a, b := r.GetFloat("a", 0), r.GetFloat("b", 0)
			var v float64
			switch r.GetString("op", "add") {
			case "subtract":
				v = a - b
			case "multiply":
				v = a * b
			case "divide":
				if b == 0 {
					return mcp.NewToolResultError("division by zero"), nil
				}
				v = a / b
			default:
				v = a + b
			}
			return mcp.NewToolResultStructured(map[string]any{"result": v}, fmt.Sprint(v)), nil
		})
	s.AddTool(mcp.NewTool("slow_count", mcp.WithDescription("Count to n, one step every 300 ms, reporting progress"), hints(true, false, false),
		mcp.WithInteger("n", mcp.DefaultNumber(10), mcp.Min(1), mcp.Max(100))),
		func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			n := r.GetInt("n", 10)
			var token mcp.ProgressToken
			if r.Params.Meta != nil {
				token = r.Params.Meta.ProgressToken
			}
			srv := server.ServerFromContext(ctx)
			t := time.NewTicker(300 * time.Millisecond)
			defer t.Stop()
			for i := 1; i <= n; i++ {
				select {
				case <-ctx.Done():
					return nil, ctx.Err()
				case <-t.C:
				}
				if token != nil && srv != nil {
					// float64: in-process notifications skip the JSON round trip
					// that would turn ints into float64 for the client
					_ = srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
						"progressToken": token, "progress": float64(i), "total": float64(n), "message": fmt.Sprintf("counted %d", i),
					})
				}
			}
			return mcp.NewToolResultText(fmt.Sprintf("counted to %d", n)), nil
		})
	s.AddPrompt(mcp.NewPrompt("explain", mcp.WithPromptDescription("Explain a calculation step by step"),
		mcp.WithArgument("expression", mcp.RequiredArgument())),
		func(_ context.Context, r mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("", []mcp.PromptMessage{
				mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("Explain step by step: "+r.Params.Arguments["expression"])),
			}), nil
		})
	return s
}

// Weather is a simulated forecast service (no network).
func Weather() *server.MCPServer {
	s := server.NewMCPServer("weather-sim", "0.3.1", server.WithToolCapabilities(false), server.WithResourceCapabilities(false, false),
		server.WithInstructions("Simulated weather: the numbers are made up, deterministically from the city name."))
	cities := []string{"Lisbon", "Oslo", "Nairobi", "Lima", "Osaka"}
	s.AddTool(mcp.NewTool("forecast", mcp.WithDescription("Forecast for a city"),
		hints(true, false, true),
		mcp.WithString("city", mcp.Required(), mcp.Enum(cities...)),
		mcp.WithInteger("days", mcp.DefaultNumber(3), mcp.Min(1), mcp.Max(7)),
		mcp.WithBoolean("fahrenheit", mcp.DefaultBool(false))),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			city, days := r.GetString("city", "Lisbon"), r.GetInt("days", 3)
			seed := 0
			for _, c := range city {
				seed += int(c)
			}
			var b strings.Builder
			for d := range days {
				t := 8 + (seed+d*7)%20
				unit := "°C"
				if r.GetBool("fahrenheit", false) {
					t, unit = t*9/5+32, "°F"
				}
				fmt.Fprintf(&b, "day %d: %d%s, %s\n", d+1, t, unit, []string{"sunny", "cloudy", "rain", "windy"}[(seed+d)%4])
			}
			return mcp.NewToolResultText(b.String()), nil
		})
	s.AddResource(mcp.NewResource("weather://cities", "cities", mcp.WithMIMEType("application/json")),
		func(_ context.Context, r mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{
				URI: r.Params.URI, MIMEType: "application/json",
				Text: `["` + strings.Join(cities, `","`) + `"]`,
			}}, nil
		})
	return s
}

// Survey's tool asks the person a question through a form elicitation. It
// asks for input the way 2026-07-28 does (an input_required result, answered
// on the retry); mcp-go turns that into an elicitation/create request for a
// client on an older protocol.
func Survey() *server.MCPServer {
	s := server.NewMCPServer("survey", "1.0.0", server.WithToolCapabilities(false), server.WithElicitation())
	s.AddTool(mcp.NewTool("feedback", mcp.WithDescription("Ask you for feedback (form elicitation)"), hints(false, false, false)),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res := server.ElicitationResponse(req.Params.InputResponses, "feedback")
			if res == nil {
				return server.NewInputRequestBuilder("").Elicit("feedback", mcp.ElicitationParams{
					Message: "How is the demo going?",
					RequestedSchema: map[string]any{
						"type": "object",
						"properties": map[string]any{
							"name":      map[string]any{"type": "string", "title": "Your name"},
							"rating":    map[string]any{"type": "string", "enum": []string{"great", "fine", "meh"}, "default": "great"},
							"subscribe": map[string]any{"type": "boolean", "default": false},
						},
						"required": []string{"name"},
					},
				}).ToolResult(), nil
			}
			if res.Action != mcp.ElicitationResponseActionAccept {
				return mcp.NewToolResultText("you chose to " + string(res.Action)), nil
			}
			var name, rating string
			var subscribe bool
			if c, ok := res.Content.(map[string]any); ok {
				name, _ = c["name"].(string)
				rating, _ = c["rating"].(string)
				subscribe, _ = c["subscribe"].(bool)
			}
			news := "no newsletter"
			if subscribe {
				news = "subscribed to the newsletter"
			}
			return mcp.NewToolResultText(fmt.Sprintf("Thanks, %s! You rated the demo %q (%s).", name, rating, news)), nil
		})
	return s
}

// Reviewer is the demo's project (.mcp.json) server: it runs only once approved.
func Reviewer() *server.MCPServer {
	s := server.NewMCPServer("reviewer", "0.1.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("review", mcp.WithDescription("Review a snippet of code"),
		hints(true, false, false), mcp.WithString("code", mcp.Required())),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprintf("%d characters reviewed: looks good", len(r.GetString("code", "")))), nil
		})
	return s
}

// Crashy is served over stdio and exits every ~20 s (see Serve).
func Crashy() *server.MCPServer {
	s := server.NewMCPServer("crashy", "0.0.1", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("ping", mcp.WithDescription("Answer pong (while it lasts)"), hints(true, false, false)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("pong"), nil
		})
	return s
}
