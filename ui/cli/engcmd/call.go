package engcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
)

// NewCallCmds builds call, read and prompt.
func NewCallCmds(g *clicore.Globals) []*cobra.Command {
	call := &cobra.Command{
		Use:   "call SERVER TOOL [JSON|-]",
		Short: "Call a tool with JSON object arguments and print its result",
		Long: "Connects only SERVER, validates the arguments against the tool's input schema,\n" +
			"calls the tool and prints its result (images and large results are saved to files).\n" +
			"Progress is shown on stderr. A server's elicitation request needs --elicit here.",
		Example: `  mcpdeck call everything get-sum '{"a": 2, "b": 3}'
  jq -n '{a: 2, b: 3}' | mcpdeck call everything get-sum -`,
		Args: clicore.RangeArgs(2, 3, "SERVER TOOL [JSON|-]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			js, err := clicore.JSONArg(g, args, 2)
			if err != nil {
				return err
			}
			var params map[string]any
			if err := clicore.DecodeObject(js, &params); err != nil {
				return clicore.Usagef("the tool arguments must be a JSON object: %v", err)
			}
			return clicore.Cancelled(runEngCall(cmd.Context(), clicore.NewEngineFlagsInline(g), args[0], args[1], params))
		},
	}
	var watch bool
	read := &cobra.Command{
		Use:   "read SERVER URI",
		Short: "Read a resource and print it (binary contents are saved to files)",
		Example: "  mcpdeck read notes file:///todo.md\n" +
			"  # print it again on every change, until Ctrl-C\n" +
			"  mcpdeck read notes file:///todo.md --watch",
		Args: clicore.RangeArgs(2, 2, "SERVER URI"),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := clicore.NewEngineFlagsInline(g)
			return clicore.Cancelled(clicore.WithServer(cmd.Context(), f, args[0], func(ctx context.Context, s *clicore.Session) error {
				if watch {
					return watchResource(ctx, f, s, args[0], args[1])
				}
				res, err := s.Eng.ReadResource(ctx, args[0], args[1])
				if err != nil {
					return engCallErr(f, fmt.Sprintf("read %s from %s", args[1], args[0]), err)
				}
				if g.JSON {
					return clicore.WriteJSON(g.Stdout, res)
				}
				return clicore.PrintContents(g.Stdout, res.Contents)
			}))
		},
	}
	read.Flags().BoolVarP(&watch, "watch", "w", false, "subscribe and print the resource again each time the server says it changed, until Ctrl-C")
	prompt := &cobra.Command{
		Use:     "prompt SERVER NAME [JSON|-]",
		Short:   "Get a prompt, with its arguments as a JSON object of strings",
		Example: `  mcpdeck prompt everything args-prompt '{"city": "Lisbon"}'`,
		Args:    clicore.RangeArgs(2, 3, "SERVER NAME [JSON|-]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			js, err := clicore.JSONArg(g, args, 2)
			if err != nil {
				return err
			}
			var raw map[string]any
			if err := clicore.DecodeObject(js, &raw); err != nil {
				return clicore.Usagef("the prompt arguments must be a JSON object: %v", err)
			}
			pargs := clicore.PromptArgs(raw)
			f := clicore.NewEngineFlagsInline(g)
			return clicore.Cancelled(clicore.WithServer(cmd.Context(), f, args[0], func(ctx context.Context, s *clicore.Session) error {
				res, err := s.Eng.GetPrompt(ctx, args[0], args[1], pargs)
				if err != nil {
					return engCallErr(f, fmt.Sprintf("get prompt %s from %s", args[1], args[0]), err)
				}
				if g.JSON {
					return clicore.WriteJSON(g.Stdout, res)
				}
				if res.Description != "" {
					fmt.Fprintln(g.Stdout, "# "+textsafe.SanitizeLine(res.Description))
				}
				return clicore.PrintContents(g.Stdout, res.Messages)
			}))
		},
	}
	return []*cobra.Command{call, read, prompt}
}

// runEngCall connects SERVER alone, calls TOOL and prints the result.
func runEngCall(ctx context.Context, f *clicore.EngineFlags, server, tool string, params map[string]any) error {
	g := f.Globals
	return clicore.WithServer(ctx, f, server, func(ctx context.Context, s *clicore.Session) error {
		prog := newCallProgress(g)
		res, err := s.Eng.CallTool(ctx, server, tool, params, prog.show)
		prog.end()
		if err != nil {
			return engCallErr(f, fmt.Sprintf("call %s on %s", tool, server), err)
		}
		if err := printToolResult(g, res); err != nil {
			return err
		}
		if res.IsError {
			if err := f.Asked.Explain(); err != nil {
				return err
			}
			fmt.Fprintf(g.Stderr, "mcpdeck: tool %s on %s reported an error.\n", textsafe.SanitizeLine(tool), server)
			return clicore.SilentError{}
		}
		return nil
	})
}

// printToolResult prints a call's result: as JSON with --json, else its
// content (on stderr when the tool reported an error), and its structured
// content when nothing else says it in text.
func printToolResult(g *clicore.Globals, res engine.ToolResult) error {
	if g.JSON {
		return clicore.WriteJSON(g.Stdout, res)
	}
	out := g.Stdout
	if res.IsError {
		out = g.Stderr
	}
	if err := clicore.PrintContents(out, res.Content); err != nil {
		return err
	}
	if len(res.Structured) > 0 && !clicore.HasText(res.Content) {
		var buf bytes.Buffer
		if json.Indent(&buf, res.Structured, "", "  ") == nil {
			fmt.Fprintln(out, string(textsafe.EscapeJSON(buf.Bytes()))) // U+202E and the like shown as \u escapes
		}
	}
	return nil
}

// engCallErr explains a failed request: a refused elicitation first (the
// usual reason a call fails headless), else the error itself.
func engCallErr(f *clicore.EngineFlags, what string, err error) error {
	if e := f.Asked.Explain(); e != nil {
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
