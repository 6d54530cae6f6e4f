package engcmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// engListing is one of `mcpdeck tools|resources|prompts [SERVER]`.
type engListing struct {
	use, short string
	// items returns the server's entries for --json and the text lines.
	items func(srv engine.ServerSnapshot) (json any, lines []string, n int)
}

// NewBrowseCmds builds tools, resources and prompts.
func NewBrowseCmds(g *clicore.Globals) []*cobra.Command {
	listings := []engListing{
		{use: "tools", short: "List the tools of every connected server (or of SERVER)", items: engToolItems},
		{use: "resources", short: "List the resources and resource templates of every server (or of SERVER)", items: engResourceItems},
		{use: "prompts", short: "List the prompts of every server (or of SERVER), with their arguments", items: engPromptItems},
	}
	var cmds []*cobra.Command
	for _, l := range listings {
		cmds = append(cmds, &cobra.Command{
			Use:   l.use + " [SERVER]",
			Short: l.short,
			Args:  cobra.MaximumNArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				f := clisession.NewEngineFlags(g)
				f.InlineAuth = len(args) == 1 // sign in on demand for one named server only
				return clierr.Cancelled(runEngListing(cmd.Context(), f, l, args))
			},
		})
	}
	return cmds
}

// engServerItems is the --json shape: one object per server.
type engServerItems struct {
	Server string `json:"server"`
	State  string `json:"state"`
	Error  string `json:"error,omitempty"`
	Items  any    `json:"items"`
}

// runEngListing lists l for every server (or the one named), printed once
// all have answered, in the configuration's order (scope, then name) so
// the output does not depend on which server was quicker.
func runEngListing(ctx context.Context, f *clisession.EngineFlags, l engListing, args []string) error {
	g := f.Globals
	s, err := clisession.StartSession(ctx, f, args...)
	if err != nil {
		return err
	}
	defer s.Close()
	var settled []engine.ServerSnapshot
	if err := s.WaitSettled(ctx, args, func(srv engine.ServerSnapshot) { settled = append(settled, srv) }); err != nil {
		return err
	}
	clisession.SortLikeSnapshot(settled, s.Last)
	var results []engServerItems
	problems := 0
	for _, srv := range settled {
		o := clisession.OutcomeOf(srv)
		if o != status.OutcomeConnected {
			if len(args) == 0 && o != status.OutcomeFailed {
				continue // disabled, unapproved, needs auth: nothing to list, not an error
			}
			problems++
			fmt.Fprintln(g.Stderr, clisession.ListLine(srv))
			results = append(results, engServerItems{Server: srv.Name, State: o.Word(), Error: clisession.Reason(srv), Items: []any{}})
			continue
		}
		js, lines, n := l.items(srv)
		results = append(results, engServerItems{Server: srv.Name, State: o.Word(), Items: js})
		if g.JSON {
			continue
		}
		count := status.Plural(n, strings.TrimSuffix(l.use, "s"))
		if l.use == "resources" { // resources and templates counted apart, as everywhere
			count = status.Plural(len(srv.Resources), "resource") + " · " + status.Plural(len(srv.Templates), "template")
		}
		fmt.Fprintf(g.Stdout, "%s (%s)\n", textsafe.SanitizeLine(srv.Name), count)
		if l.use == "tools" && len(srv.ToolsDeniedBy) > 0 { // the cause before the tools it denies
			fmt.Fprintln(g.Stdout, "  ! "+status.ToolsDenied(srv.ToolsDeniedBy))
		}
		for _, line := range lines {
			fmt.Fprintln(g.Stdout, "  "+line)
		}
	}
	if g.JSON {
		if err := cliout.WriteJSON(g.Stdout, results); err != nil {
			return err
		}
	}
	if problems > 0 {
		return clierr.SilentError{}
	}
	return nil
}

func engToolItems(srv engine.ServerSnapshot) (any, []string, int) {
	var lines []string
	for _, t := range srv.Tools {
		tags := status.ToolBadges(&t, srv.ToolsDeniedBy)
		line := textsafe.SanitizeLine(t.Name)
		if len(tags) > 0 {
			line += " [" + strings.Join(tags, ", ") + "]"
		}
		if d := engSummary(t.Title, t.Description); d != "" {
			line += " — " + d
		}
		lines = append(lines, line)
	}
	items := srv.Tools
	if items == nil {
		items = []engine.Tool{}
	}
	return items, lines, len(srv.Tools)
}

func engResourceItems(srv engine.ServerSnapshot) (any, []string, int) {
	var lines []string
	for _, r := range srv.Resources {
		line := textsafe.SanitizeLine(r.URI)
		if d := engSummary(r.Name, r.Description); d != "" {
			line += " — " + d
		}
		lines = append(lines, line)
	}
	for _, t := range srv.Templates {
		line := textsafe.SanitizeLine(t.URITemplate) + " (template)"
		if d := engSummary(t.Name, t.Description); d != "" {
			line += " — " + d
		}
		lines = append(lines, line)
	}
	type resources struct {
		Resources []engine.Resource         `json:"resources"`
		Templates []engine.ResourceTemplate `json:"resourceTemplates"`
	}
	js := resources{Resources: srv.Resources, Templates: srv.Templates}
	if js.Resources == nil {
		js.Resources = []engine.Resource{}
	}
	if js.Templates == nil {
		js.Templates = []engine.ResourceTemplate{}
	}
	return js, lines, len(srv.Resources) + len(srv.Templates)
}

func engPromptItems(srv engine.ServerSnapshot) (any, []string, int) {
	var lines []string
	for _, p := range srv.Prompts {
		line := textsafe.SanitizeLine(p.Name)
		var args []string
		for _, a := range p.Arguments {
			if a.Required {
				args = append(args, a.Name)
			} else {
				args = append(args, "["+a.Name+"]")
			}
		}
		if len(args) > 0 {
			line += " " + textsafe.SanitizeLine(strings.Join(args, " "))
		}
		if d := engSummary("", p.Description); d != "" {
			line += " — " + d
		}
		lines = append(lines, line)
	}
	items := srv.Prompts
	if items == nil {
		items = []engine.Prompt{}
	}
	return items, lines, len(srv.Prompts)
}

// engSummary is a one-line description: the title, else the first line of
// the description, cut to fit a terminal line.
func engSummary(title, desc string) string {
	s := title
	if s == "" {
		s = engFirstLine(strings.TrimSpace(desc))
	}
	return textsafe.Clip(textsafe.SanitizeLine(s), 100)
}

func engFirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
