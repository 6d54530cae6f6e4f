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
	"github.com/mcpdeck/mcpdeck/ui/form"
)

// NewCallCmds builds call, read and prompt.
func NewCallCmds(g *clicore.Globals) []*cobra.Command {
	call := &cobra.Command{
		Use:   "call SERVER TOOL [JSON|-|KEY=VALUE...]",
		Short: "Call a tool with JSON or key=value arguments and print its result",
		Long: "Connects only SERVER, validates the arguments against the tool's input schema,\n" +
			"calls the tool and prints its result (images and large results are saved to files).\n" +
			"Arguments are one JSON object (- reads it from stdin) or key=value words:\n" +
			"key=text is typed by the tool's schema (count=3 is a number when count is\n" +
			"one), key:=JSON is a JSON value as written (tags:='[\"a\"]').\n" +
			"Progress is shown on stderr. A server's elicitation request needs --elicit here.",
		Example: `  mcpdeck call everything get-sum '{"a": 2, "b": 3}'
  mcpdeck call everything get-sum a=2 b=3
  mcpdeck call everything echo message=hi
  jq -n '{a: 2, b: 3}' | mcpdeck call everything get-sum -`,
		Args: clicore.MinimumArgs(2, "SERVER TOOL [JSON|-|KEY=VALUE...]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			how := clicore.ArgsForm{Command: "call", What: "tool", Server: args[0], Name: args[1]}
			params, err := clicore.ReadArgs(g, args[2:], how)
			if err != nil {
				return err
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
					srv, _ := s.Server(args[0])
					return clicore.UnknownItemHint(engCallErr(f, fmt.Sprintf("read %s from %s", args[1], args[0]), err), srv, clicore.ItemResource, args[1])
				}
				if g.JSON {
					return writeMCPResult(g, res)
				}
				return clicore.PrintContents(g.Stdout, res.Contents)
			}))
		},
	}
	read.Flags().BoolVarP(&watch, "watch", "w", false, "subscribe and print the resource again each time the server says it changed, until Ctrl-C")
	prompt := &cobra.Command{
		Use:   "prompt SERVER NAME [JSON|-|KEY=VALUE...]",
		Short: "Get a prompt, with its arguments as key=value words or a JSON object of strings",
		Example: `  mcpdeck prompt everything args-prompt city=Lisbon
  mcpdeck prompt everything args-prompt '{"city": "Lisbon"}'`,
		Args: clicore.MinimumArgs(2, "SERVER NAME [JSON|-|KEY=VALUE...]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			how := clicore.ArgsForm{Command: "prompt", What: "prompt", Server: args[0], Name: args[1], Strings: true}
			raw, err := clicore.ReadArgs(g, args[2:], how)
			if err != nil {
				return err
			}
			pargs := raw.Strings()
			f := clicore.NewEngineFlagsInline(g)
			return clicore.Cancelled(clicore.WithServer(cmd.Context(), f, args[0], func(ctx context.Context, s *clicore.Session) error {
				res, err := s.Eng.GetPrompt(ctx, args[0], args[1], pargs)
				if err != nil {
					srv, _ := s.Server(args[0])
					return clicore.UnknownItemHint(engCallErr(f, fmt.Sprintf("get prompt %s from %s", args[1], args[0]), err), srv, clicore.ItemPrompt, args[1])
				}
				if g.JSON {
					return writeMCPResult(g, res)
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

// writeMCPResult prints a result with --json: as the server sent it
// (clicore.MCPResult).
func writeMCPResult(g *clicore.Globals, res any) error {
	js, err := clicore.MCPResult(res)
	if err != nil {
		return err
	}
	return clicore.WriteJSON(g.Stdout, js)
}

// runEngCall connects SERVER alone, types the arguments with the tool's
// input schema, calls TOOL and prints the result. A tool the server's
// list lacks is looked for once more when the server says its list
// changes (engine.FindTool): a gateway such as mcpdeck serve may offer it
// just after the first list.
func runEngCall(ctx context.Context, f *clicore.EngineFlags, server, tool string, args clicore.Args) error {
	g := f.Globals
	return clicore.WithServer(ctx, f, server, func(ctx context.Context, s *clicore.Session) error {
		failed := func(err error) error {
			srv, _ := s.Server(server)
			return clicore.UnknownItemHint(engCallErr(f, fmt.Sprintf("call %s on %s", tool, server), err), srv, clicore.ItemTool, tool)
		}
		def, err := s.Eng.FindTool(ctx, server, tool)
		if err != nil {
			return failed(err)
		}
		params := args.Typed(schemaTyper(def))
		prog := newCallProgress(g)
		res, err := s.Eng.CallTool(ctx, server, tool, params, prog.show)
		prog.end()
		if err != nil {
			return failed(err)
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

// schemaTyper types key=text arguments with tool's input schema
// (form.Schema.FromText); nil, text as it is, when its schema cannot be
// read (the engine then says why).
func schemaTyper(tool engine.Tool) func(key, text string) any {
	sch, err := form.Parse(tool.InputSchema)
	if err != nil {
		return nil
	}
	return sch.FromText
}

// printToolResult prints a call's result: as JSON with --json, else its
// content (on stderr when the tool reported an error), and its structured
// content when nothing else says it in text.
func printToolResult(g *clicore.Globals, res engine.ToolResult) error {
	if g.JSON {
		return writeMCPResult(g, res)
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
