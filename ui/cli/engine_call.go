package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
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
					fmt.Fprintln(g.stdout, "# "+model.SanitizeLine(res.Description))
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
			fmt.Fprintln(g.stderr, model.SanitizeLine(line))
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
					fmt.Fprintln(out, string(model.EscapeJSON(buf.Bytes()))) // U+202E and the like shown as \u escapes
				}
			}
		}
		if res.IsError {
			if err := f.asked.explain(); err != nil {
				return err
			}
			fmt.Fprintf(g.stderr, "mcpdeck: tool %s on %s reported an error.\n", model.SanitizeLine(tool), server)
			return silentError{}
		}
		return nil
	})
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
