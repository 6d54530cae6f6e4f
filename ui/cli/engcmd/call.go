package engcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/clinames"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
	"github.com/mcpdeck/mcpdeck/ui/form"
	"github.com/mcpdeck/mcpdeck/ui/status"
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
			"Progress is shown on stderr. A server's elicitation request is asked at the terminal,\n" +
			"a line at a time; without one it needs --elicit.",
		Example: `  mcpdeck call everything get-sum '{"a": 2, "b": 3}'
  mcpdeck call everything get-sum a=2 b=3
  mcpdeck call everything echo message=hi
  jq -n '{a: 2, b: 3}' | mcpdeck call everything get-sum -`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 { // the tool is missing: where to find it
				return clierr.Usagef("%s takes SERVER TOOL [JSON|-|KEY=VALUE...], got 1 argument; %s", cmd.CommandPath(),
					strings.Replace(clinames.ListingCommand(clinames.ItemTool, args[0]), "lists them", "lists its tools", 1))
			}
			return cliargs.MinimumArgs(2, "SERVER TOOL [JSON|-|KEY=VALUE...]")(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			how := cliargs.ArgsForm{Command: "call", What: "tool", Server: args[0], Name: args[1]}
			params, err := cliargs.ReadArgs(g, args[2:], how)
			if err != nil {
				return err
			}
			return clierr.Cancelled(runEngCall(cmd.Context(), clisession.NewEngineFlagsInline(g), args[0], args[1], params))
		},
	}
	var watch bool
	read := &cobra.Command{
		Use:   "read SERVER URI",
		Short: "Read a resource and print it (binary contents are saved to files)",
		Example: "  mcpdeck read notes file:///todo.md\n" +
			"  # print it again on every change, until Ctrl-C\n" +
			"  mcpdeck read notes file:///todo.md --watch",
		Args: cliargs.RangeArgs(2, 2, "SERVER URI"),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := clisession.NewEngineFlagsInline(g)
			return clierr.Cancelled(clisession.WithServer(cmd.Context(), f, args[0], func(ctx context.Context, s *clisession.Session) error {
				if watch {
					return watchResource(ctx, f, s, args[0], args[1])
				}
				res, err := s.Eng.ReadResource(ctx, args[0], args[1])
				if err != nil {
					srv, _ := s.Server(args[0])
					return clinames.UnknownItemHint(engCallErr(f, fmt.Sprintf("read %s from %s", args[1], args[0]), err), srv, clinames.ItemResource, args[1])
				}
				if g.JSON {
					return writeMCPResult(g, res)
				}
				return cliout.PrintContents(g.Stdout, res.Contents)
			}))
		},
	}
	read.Flags().BoolVarP(&watch, "watch", "w", false, "subscribe and print the resource again each time the server says it changed, until Ctrl-C")
	prompt := &cobra.Command{
		Use:   "prompt SERVER NAME [JSON|-|KEY=VALUE...]",
		Short: "Get a prompt, with its arguments as key=value words or a JSON object of strings",
		Example: `  mcpdeck prompt everything args-prompt city=Lisbon
  mcpdeck prompt everything args-prompt '{"city": "Lisbon"}'`,
		Args: cliargs.MinimumArgs(2, "SERVER NAME [JSON|-|KEY=VALUE...]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			how := cliargs.ArgsForm{Command: "prompt", What: "prompt", Server: args[0], Name: args[1], Strings: true}
			raw, err := cliargs.ReadArgs(g, args[2:], how)
			if err != nil {
				return err
			}
			pargs := raw.Strings()
			f := clisession.NewEngineFlagsInline(g)
			return clierr.Cancelled(clisession.WithServer(cmd.Context(), f, args[0], func(ctx context.Context, s *clisession.Session) error {
				res, err := s.Eng.GetPrompt(ctx, args[0], args[1], pargs)
				if err != nil {
					srv, _ := s.Server(args[0])
					return clinames.UnknownItemHint(engCallErr(f, fmt.Sprintf("get prompt %s from %s", args[1], args[0]), err), srv, clinames.ItemPrompt, args[1])
				}
				if g.JSON {
					return writeMCPResult(g, res)
				}
				if res.Description != "" {
					fmt.Fprintln(g.Stdout, "# "+textsafe.SanitizeLine(res.Description))
				}
				return cliout.PrintContents(g.Stdout, res.Messages)
			}))
		},
	}
	return []*cobra.Command{call, read, prompt}
}

// writeMCPResult prints a result with --json: as the server sent it
// (cliout.MCPResult).
func writeMCPResult(g *clicore.Globals, res any) error {
	js, err := cliout.MCPResult(res)
	if err != nil {
		return err
	}
	return cliout.WriteJSON(g.Stdout, js)
}

// runEngCall connects SERVER alone, types the arguments with the tool's
// input schema, calls TOOL and prints the result. A tool the server's
// list lacks is looked for once more when the server says its list
// changes (engine.FindTool): a gateway such as mcpdeck serve may offer it
// just after the first list.
func runEngCall(ctx context.Context, f *clisession.EngineFlags, server, tool string, args cliargs.Args) error {
	g := f.Globals
	return clisession.WithServer(ctx, f, server, func(ctx context.Context, s *clisession.Session) error {
		failed := func(err error) error {
			srv, _ := s.Server(server)
			return clinames.UnknownItemHint(engCallErr(f, fmt.Sprintf("call %s on %s", tool, server), err), srv, clinames.ItemTool, tool)
		}
		def, err := s.Eng.FindTool(ctx, server, tool)
		if err != nil {
			return failed(err)
		}
		params := args.Typed(schemaTyper(def))
		if w := unknownKeys(def, params); w != "" {
			fmt.Fprintln(g.Stderr, "mcpdeck: warning: "+w)
		}
		prog := newCallProgress(g)
		started := time.Now()
		res, err := s.Eng.CallTool(ctx, server, tool, params, prog.show)
		prog.end()
		// the sandbox's refusals first: the server's own words ("fetch
		// failed") do not say the sandbox did it
		for _, after := range s.Eng.Snapshot().Servers {
			if why := status.Refused(&after, after.RefusedSince(started)); after.Name == server && why != "" {
				fmt.Fprintln(g.Stderr, "mcpdeck: "+why+".")
			}
		}
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
			return clierr.SilentError{}
		}
		return nil
	})
}

// unknownKeys warns of the arguments the tool's input schema does not
// declare (c=3 for a tool taking a and b): sent anyway, since a schema may
// allow more, but a typo should not go out without a word. "" when every
// key is declared, or the schema cannot be read.
func unknownKeys(tool engine.Tool, params map[string]any) string {
	sch, err := form.Parse(tool.InputSchema)
	if err != nil {
		return ""
	}
	declared := sch.Names()
	var unknown []string
	for k := range params {
		if !slices.Contains(declared, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 || len(declared) == 0 {
		return ""
	}
	slices.Sort(unknown)
	what := fmt.Sprintf("tool %s has no argument %q", tool.Name, unknown[0])
	if len(unknown) > 1 {
		what = fmt.Sprintf("tool %s has no arguments %s", tool.Name, strings.Join(quoted(unknown), ", "))
	}
	msg := what + " (it takes " + strings.Join(declared, ", ") + "); sent anyway"
	if hint := clinames.DidYouMean(unknown[0], declared); hint != "" {
		msg += "; " + hint
	}
	return textsafe.SanitizeLine(msg)
}

// quoted is each string in Go's quotes.
func quoted(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
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
	if err := cliout.PrintContents(out, res.Content); err != nil {
		return err
	}
	if len(res.Structured) > 0 && !cliout.HasText(res.Content) {
		var buf bytes.Buffer
		if json.Indent(&buf, res.Structured, "", "  ") == nil {
			fmt.Fprintln(out, string(textsafe.EscapeJSON(buf.Bytes()))) // U+202E and the like shown as \u escapes
		}
	}
	return nil
}

// engCallErr explains a failed request: a refused elicitation first (the
// usual reason a call fails headless), else the error itself.
func engCallErr(f *clisession.EngineFlags, what string, err error) error {
	if e := f.Asked.Explain(); e != nil {
		return e
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("%s: cancelled", what)
	}
	var ce *engine.CallError
	var de *engine.DeniedError
	if errors.As(err, &ce) || errors.As(err, &de) {
		return err // it already names the request and the server
	}
	return fmt.Errorf("%s: %w", what, err)
}
