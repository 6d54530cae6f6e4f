package engcmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
	"github.com/mcpdeck/mcpdeck/ui/contextcost"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// contextReport is `mcpdeck context --json`.
type contextReport struct {
	Servers   []contextServer        `json:"servers"`
	Total     int                    `json:"total"`
	OverTotal bool                   `json:"overTotal,omitempty"` // above contextcost.TotalLimit
	Largest   []contextcost.ToolCost `json:"largest"`
	Tokenizer string                 `json:"tokenizer"`
	Note      string                 `json:"note"`
}

// contextServer is one server's cost and, when over the limit, the tools
// whose deny rules would bring it under.
type contextServer struct {
	contextcost.ServerCost
	Disable []string `json:"disable,omitempty"` // permission deny rules, largest tool first
}

// NewContextCmd is `mcpdeck context [SERVER...]`: what each connected
// server's tool definitions cost in a model's context, per server and per
// tool, the total and the 10 largest tools.
func NewContextCmd(g *clicore.Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "context [SERVER...]",
		Short: "Show what each server's tool definitions cost in a model's context (tokens)",
		Long: fmt.Sprintf("Connects the servers (all that may run, or those named), lists their tools as they define them and\n"+
			"counts the tokens of each definition (name, description, input schema). A server above %d tokens and a\n"+
			"total above %d are marked, with the tools whose deny rules would bring the server under.\nTokens are %s.",
			contextcost.ServerLimit, contextcost.TotalLimit, contextcost.Note),
		Example: "  mcpdeck context\n  mcpdeck context github --json",
		RunE: func(cmd *cobra.Command, args []string) error {
			return clierr.Cancelled(runContext(cmd.Context(), clisession.NewEngineFlags(g), args))
		},
	}
}

func runContext(ctx context.Context, f *clisession.EngineFlags, names []string) error {
	g := f.Globals
	s, err := clisession.StartSession(ctx, f, names...)
	if err != nil {
		return err
	}
	defer s.Close()
	results, err := clisession.SettleList(ctx, s, names, false)
	if err != nil {
		return err
	}
	clisession.SortLikeSnapshot(results, s.Last)
	var counter contextcost.Counter
	rep := contextReport{Servers: []contextServer{}, Tokenizer: contextcost.Encoding, Note: contextcost.Note}
	var costs []contextcost.ServerCost
	for _, srv := range results {
		if clisession.OutcomeOf(srv) != status.OutcomeConnected {
			continue
		}
		defs, err := s.Eng.ToolDefinitions(ctx, srv.Name)
		if err != nil {
			return err
		}
		tools := make([]contextcost.Tool, 0, len(defs))
		for _, d := range defs {
			tools = append(tools, contextcost.Tool{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema})
		}
		c, err := counter.Server(srv.Name, tools)
		if err != nil {
			return err
		}
		cs := contextServer{ServerCost: c}
		for _, t := range contextcost.ToDisable(c, contextcost.ServerLimit) {
			cs.Disable = append(cs.Disable, model.ToolName(srv.Name, t.Name))
		}
		rep.Servers = append(rep.Servers, cs)
		rep.Total += c.Tokens
		costs = append(costs, c)
	}
	rep.OverTotal = rep.Total > contextcost.TotalLimit
	rep.Largest = contextcost.Largest(costs, 10)
	if rep.Largest == nil {
		rep.Largest = []contextcost.ToolCost{}
	}
	if g.JSON {
		return cliout.WriteJSON(g.Stdout, rep)
	}
	printContext(g, rep, results)
	return nil
}

// printContext writes the report as text.
func printContext(g *clicore.Globals, rep contextReport, all []engine.ServerSnapshot) {
	out := g.Stdout
	for _, s := range rep.Servers {
		line := fmt.Sprintf("%-20s %8d tokens  %d tools", s.Server, s.Tokens, len(s.Tools))
		if s.Over {
			shown := s.Disable[:min(len(s.Disable), 5)]
			more := ""
			if n := len(s.Disable) - len(shown); n > 0 {
				more = fmt.Sprintf(" and %d more (--json lists them)", n)
			}
			line += fmt.Sprintf("  ⚠ over %d: deny %s%s to get under", contextcost.ServerLimit, strings.Join(shown, ", "), more)
		}
		fmt.Fprintln(out, textsafe.SanitizeLine(line))
	}
	counted := map[string]bool{}
	for _, s := range rep.Servers {
		counted[s.Server] = true
	}
	for _, srv := range all {
		if !counted[srv.Name] {
			fmt.Fprintln(out, textsafe.SanitizeLine(fmt.Sprintf("%-20s not counted: %s", srv.Name, clisession.StatusBody(srv))))
		}
	}
	total := fmt.Sprintf("%-20s %8d tokens", "total", rep.Total)
	if rep.OverTotal {
		total += fmt.Sprintf("  ⚠ over %d", contextcost.TotalLimit)
	}
	fmt.Fprintln(out, total)
	if len(rep.Largest) > 0 {
		fmt.Fprintln(out, "\nLargest tools:")
		for _, t := range rep.Largest {
			fmt.Fprintln(out, textsafe.SanitizeLine(fmt.Sprintf("%8d  %s", t.Tokens, model.ToolName(t.Server, t.Name))))
		}
	}
	fmt.Fprintln(out, "\nNote: tokens are "+contextcost.Note+".")
}
