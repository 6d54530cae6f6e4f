package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// newEngCallCmds builds call, read and prompt.
func newEngCallCmds(g *globalOpts) []*cobra.Command {
	call := &cobra.Command{
		Use:   "call SERVER TOOL [JSON|-]",
		Short: "Call a tool with JSON object arguments and print its result",
		Long: "Connects only SERVER, validates the arguments against the tool's input schema,\n" +
			"calls the tool and prints its result (images and large results are saved to files).\n" +
			"Progress is shown on stderr. A server's elicitation request needs --elicit here.",
		Example: `  mcpdeck call everything get-sum '{"a": 2, "b": 3}'
  jq -n '{a: 2, b: 3}' | mcpdeck call everything get-sum -`,
		Args: rangeEngArgs(2, 3, "SERVER TOOL [JSON|-]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			js, err := jsonArg(g, args, 2)
			if err != nil {
				return err
			}
			var params map[string]any
			if err := decodeEngObject(js, &params); err != nil {
				return usagef("the tool arguments must be a JSON object: %v", err)
			}
			return engCancelled(runEngCall(cmd.Context(), newEngFlagsInline(g), args[0], args[1], params))
		},
	}
	var watch bool
	read := &cobra.Command{
		Use:   "read SERVER URI",
		Short: "Read a resource and print it (binary contents are saved to files)",
		Example: "  mcpdeck read notes file:///todo.md\n" +
			"  mcpdeck read notes file:///todo.md --watch   # print it again on every change, until Ctrl-C",
		Args: rangeEngArgs(2, 2, "SERVER URI"),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := newEngFlagsInline(g)
			return engCancelled(withEngServer(cmd.Context(), f, args[0], func(ctx context.Context, s *engSession) error {
				if watch {
					return watchResource(ctx, f, s, args[0], args[1])
				}
				res, err := s.eng.ReadResource(ctx, args[0], args[1])
				if err != nil {
					return engCallErr(f, fmt.Sprintf("read %s from %s", args[1], args[0]), err)
				}
				if g.json {
					return writeJSON(g.stdout, res)
				}
				return printEngContents(g.stdout, res.Contents)
			}))
		},
	}
	read.Flags().BoolVarP(&watch, "watch", "w", false, "subscribe and print the resource again each time the server says it changed, until Ctrl-C")
	prompt := &cobra.Command{
		Use:     "prompt SERVER NAME [JSON|-]",
		Short:   "Get a prompt, with its arguments as a JSON object of strings",
		Example: `  mcpdeck prompt everything args-prompt '{"city": "Lisbon"}'`,
		Args:    rangeEngArgs(2, 3, "SERVER NAME [JSON|-]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			js, err := jsonArg(g, args, 2)
			if err != nil {
				return err
			}
			var raw map[string]any
			if err := decodeEngObject(js, &raw); err != nil {
				return usagef("the prompt arguments must be a JSON object: %v", err)
			}
			pargs := promptArgs(raw)
			f := newEngFlagsInline(g)
			return engCancelled(withEngServer(cmd.Context(), f, args[0], func(ctx context.Context, s *engSession) error {
				res, err := s.eng.GetPrompt(ctx, args[0], args[1], pargs)
				if err != nil {
					return engCallErr(f, fmt.Sprintf("get prompt %s from %s", args[1], args[0]), err)
				}
				if g.json {
					return writeJSON(g.stdout, res)
				}
				if res.Description != "" {
					fmt.Fprintln(g.stdout, "# "+textsafe.SanitizeLine(res.Description))
				}
				return printEngContents(g.stdout, res.Messages)
			}))
		},
	}
	return []*cobra.Command{call, read, prompt}
}

// runEngCall connects SERVER alone, calls TOOL and prints the result.
func runEngCall(ctx context.Context, f *engFlags, server, tool string, params map[string]any) error {
	g := f.g
	return withEngServer(ctx, f, server, func(ctx context.Context, s *engSession) error {
		progress := func(p engine.Progress) {
			line := fmt.Sprintf("progress: %g", p.Progress)
			if p.Total > 0 {
				line += fmt.Sprintf("/%g", p.Total)
			}
			if p.Message != "" {
				line += " " + p.Message
			}
			fmt.Fprintln(g.stderr, textsafe.SanitizeLine(line))
		}
		res, err := s.eng.CallTool(ctx, server, tool, params, progress)
		if err != nil {
			return engCallErr(f, fmt.Sprintf("call %s on %s", tool, server), err)
		}
		if g.json {
			if err := writeJSON(g.stdout, res); err != nil {
				return err
			}
		} else {
			out := g.stdout
			if res.IsError {
				out = g.stderr
			}
			if err := printEngContents(out, res.Content); err != nil {
				return err
			}
			if len(res.Structured) > 0 && !engHasText(res.Content) {
				var buf bytes.Buffer
				if json.Indent(&buf, res.Structured, "", "  ") == nil {
					fmt.Fprintln(out, string(textsafe.EscapeJSON(buf.Bytes()))) // U+202E and the like shown as \u escapes
				}
			}
		}
		if res.IsError {
			if err := f.asked.explain(); err != nil {
				return err
			}
			fmt.Fprintf(g.stderr, "mcpdeck: tool %s on %s reported an error.\n", textsafe.SanitizeLine(tool), server)
			return silentError{}
		}
		return nil
	})
}

// withEngServer starts an engine that connects only server, waits until it
// is connected (or says why it is not), then runs fn.
func withEngServer(ctx context.Context, f *engFlags, server string, fn func(context.Context, *engSession) error) error {
	s, err := startEngSession(ctx, f, server)
	if err != nil {
		return err
	}
	defer s.Close()
	if _, err := s.ready(ctx, server); err != nil {
		return err
	}
	if err := fn(ctx, s); err != nil {
		return err
	}
	if f.declined.Load() { // the reason is already on stderr
		return silentError{}
	}
	if note := f.asked.sampleDeclined(); note != "" {
		fmt.Fprintln(f.g.stderr, "mcpdeck: note: "+note)
	}
	return nil
}

// engCallErr explains a failed request: a refused elicitation first (the
// usual reason a call fails headless), else the error itself.
func engCallErr(f *engFlags, what string, err error) error {
	if e := f.asked.explain(); e != nil {
		return e
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("%s: cancelled", what)
	}
	var ce *engine.CallError
	if errors.As(err, &ce) {
		return err // it already names the request and the server
	}
	return fmt.Errorf("%s: %w", what, err)
}

// engCancelled turns the context error of an interrupted command (Ctrl-C)
// into a one-word message; other errors pass through.
func engCancelled(err error) error {
	if errors.Is(err, context.Canceled) {
		return errors.New("cancelled")
	}
	return err
}

// printEngContents prints processed content: text as is (control
// characters stripped), files and links as one bracketed line each.
func printEngContents(w io.Writer, cs []engine.Content) error {
	for _, c := range cs {
		prefix := ""
		if c.Role != "" {
			prefix = c.Role + ": "
		}
		var line string
		switch {
		case c.Path != "" && c.Text != "":
			line = c.Text // the engine's summary names the file
		case c.Path != "":
			line = fmt.Sprintf("[%s %s, %d bytes, saved to %s]", c.Kind, c.MIMEType, c.Size, c.Path)
		case c.Kind == "resource_link":
			line = fmt.Sprintf("[link %s]", c.URI)
			if c.Text != "" {
				line += " " + c.Text
			}
		case c.Kind == "resource" && c.URI != "":
			line = fmt.Sprintf("[resource %s]\n%s", c.URI, c.Text)
		default:
			line = c.Text
		}
		if _, err := fmt.Fprintln(w, prefix+textsafe.Sanitize(line)); err != nil {
			return err
		}
	}
	return nil
}

func engHasText(cs []engine.Content) bool {
	for _, c := range cs {
		if strings.TrimSpace(c.Text) != "" {
			return true
		}
	}
	return false
}

// decodeEngObject parses a JSON object (and nothing after it). Its errors
// are sentences about the text given, never Go's decoding internals.
func decodeEngObject(s string, v *map[string]any) error {
	dec := json.NewDecoder(strings.NewReader(s))
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return jsonSyntaxProblem(err)
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		return fmt.Errorf("got %s, want an object such as {\"name\": \"value\"}", jsonKindOf(raw))
	}
	if dec.More() {
		return errors.New("unexpected data after the JSON object")
	}
	*v = obj
	return nil
}

// promptArgs turns a JSON object into prompt arguments, which MCP defines
// as strings: a string stays as it is, any other value becomes its JSON text.
func promptArgs(raw map[string]any) map[string]string {
	out := make(map[string]string, len(raw))
	for k, v := range raw {
		if s, ok := v.(string); ok {
			out[k] = s
			continue
		}
		b, _ := json.Marshal(v)
		out[k] = string(b)
	}
	return out
}

// rangeEngArgs requires between lo and hi positional arguments.
func rangeEngArgs(lo, hi int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < lo || len(args) > hi {
			return usagef("%s takes %s, got %d argument%s", cmd.CommandPath(), what, len(args), plural(len(args)))
		}
		return nil
	}
}
