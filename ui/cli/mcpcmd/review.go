package mcpcmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/pins"
	"github.com/mcpdeck/mcpdeck/model/scan"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliprompt"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
)

// newMCPReviewCmd is `mcp review NAME`: what the server tells a model that
// is not as the person accepted it (new, changed or removed tools,
// prompts, templates, instructions; drift from the lock file), as a diff
// with the scan's findings; --accept pins them again.
func newMCPReviewCmd(g *clicore.Globals) *cobra.Command {
	var accept bool
	cmd := &cobra.Command{
		Use:   "review NAME [--accept [TOOL...]]",
		Short: "Review what a server's tools say now against what you accepted, and accept it",
		Long: "Connects NAME and shows each tool, prompt, resource template or instructions that is new,\n" +
			"changed or gone since you accepted them (or differs from the repository's " + pins.LockFileName + "),\n" +
			"as a word diff of descriptions and a diff of schemas, with what the scan found. Changed and new\n" +
			"items are withheld (not called, not offered by serve) until accepted. At a terminal it asks\n" +
			"whether to accept them all; --accept accepts the named ones (all when none is named).",
		Example: "  mcpdeck mcp review github\n  mcpdeck mcp review github --accept\n  mcpdeck mcp review github --accept create_issue",
		Args:    cliargs.MinimumArgs(1, "NAME [TOOL...]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !accept && len(args) > 1 {
				return clierr.Usagef("naming tools (%s) needs --accept", strings.Join(args[1:], ", "))
			}
			return clierr.Cancelled(runReview(cmd.Context(), g, args[0], accept, args[1:]))
		},
	}
	cmd.Flags().BoolVar(&accept, "accept", false, "accept the changes named after NAME (all of them when none is named)")
	return cmd
}

// reviewDoc is `mcp review --json`.
type reviewDoc struct {
	Server   string         `json:"server"`
	Off      string         `json:"off,omitempty"`
	Changes  []pins.Change  `json:"changes"`
	Findings []scan.Finding `json:"findings"`
	Accepted []string       `json:"accepted,omitempty"`
	Withheld int            `json:"withheld"`
}

func runReview(ctx context.Context, g *clicore.Globals, name string, accept bool, names []string) error {
	return clisession.WithServer(ctx, clisession.NewEngineFlags(g), name, func(ctx context.Context, s *clisession.Session) error {
		if err := s.WaitScanned(ctx, []string{name}); err != nil {
			return err
		}
		srv, _ := s.Server(name)
		rep := srv.Pins
		doc := reviewDoc{Server: name, Off: rep.Off, Changes: rep.Changes, Findings: rep.Findings, Withheld: rep.Withheld()}
		if doc.Changes == nil {
			doc.Changes = []pins.Change{}
		}
		if doc.Findings == nil {
			doc.Findings = []scan.Finding{}
		}
		ask := !accept && !g.JSON && len(rep.Changes) > 0 && cliprompt.OnTerminal(g)
		if !g.JSON {
			printReview(g, srv)
		}
		if ask {
			ok, err := cliprompt.Confirm(g, fmt.Sprintf("Accept these %d change(s) of %s?", len(rep.Changes), name))
			if err != nil {
				return err
			}
			accept = ok
		}
		if accept && rep.Off == "" {
			if err := s.Eng.AcceptPins(ctx, name, names); err != nil {
				return err
			}
			doc.Accepted = acceptedNames(rep.Changes, names)
			after, _ := serverOf(s.Eng.Snapshot(), name)
			doc.Withheld = after.Pins.Withheld()
			if !g.JSON {
				fmt.Fprintf(g.Stdout, "Accepted %s of %s.\n", strings.Join(doc.Accepted, ", "), textsafe.SanitizeLine(name))
			}
		}
		if g.JSON {
			return cliout.WriteJSON(g.Stdout, doc)
		}
		return nil
	})
}

// acceptedNames are the names of the changes names picked (all when none).
func acceptedNames(changes []pins.Change, names []string) []string {
	var out []string
	for _, c := range changes {
		n := itemName(c.Kind, c.Name)
		if len(names) == 0 || containsStr(names, c.Name) || c.Kind == pins.KindInstructions && containsStr(names, "instructions") {
			out = append(out, n)
		}
	}
	return out
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func serverOf(snap engine.Snapshot, name string) (engine.ServerSnapshot, bool) {
	for _, srv := range snap.Servers {
		if srv.Name == name {
			return srv, true
		}
	}
	return engine.ServerSnapshot{}, false
}

// itemName is "tool send_email", "instructions".
func itemName(k pins.Kind, name string) string {
	if k == pins.KindInstructions {
		return "instructions"
	}
	return string(k) + " " + textsafe.Escape(name)
}
