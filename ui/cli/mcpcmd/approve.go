package mcpcmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliprompt"
)

// newMCPApproveCmd is `mcp approve` (approve true) or `mcp reject`: the
// decision on a project (.mcp.json) server, tied to its current definition.
func newMCPApproveCmd(g *clicore.Globals, approve bool) *cobra.Command {
	verb := "reject"
	short := "Reject a project (.mcp.json) server, or all of them: it will not run"
	if approve {
		verb = "approve"
		short = "Approve a project (.mcp.json) server, or all of them, so that it may run"
	}
	return &cobra.Command{
		Use:     verb + " NAME|all",
		Short:   short,
		Example: fmt.Sprintf("  mcpdeck mcp %s github\n  mcpdeck mcp %s all", verb, verb),
		Args:    cliargs.ExactArgs(1, "one server NAME or all"),
		RunE:    func(_ *cobra.Command, args []string) error { return runApprove(g, approve, args[0]) },
	}
}

// runApprove approves (or rejects) the project server named target, or
// all of them; at a terminal an approval shows each definition first.
func runApprove(g *clicore.Globals, approve bool, target string) error {
	verb, done := "reject", "Rejected"
	if approve {
		verb, done = "approve", "Approved"
	}
	opts, err := g.LoadOptions()
	if err != nil {
		return err
	}
	res, err := g.Load(opts)
	if err != nil {
		return err
	}
	var targets []model.Server
	for _, s := range res.Servers {
		if s.Scope == model.ScopeProject && (target == "all" || s.Name == target) {
			targets = append(targets, s)
		}
	}
	if target == "all" && len(targets) == 0 {
		fmt.Fprintf(g.Stdout, "No project servers to %s.\n", verb)
		return nil
	}
	if approve && cliprompt.OnTerminal(g) {
		if shown := awaiting(targets); len(shown) > 0 {
			return confirmApproval(g, opts, res.ProjectRoot, shown)
		}
	}
	// Approve exactly the definition read above (and shown as a diff
	// below): if the file changes in between, the model refuses.
	hash := ""
	if target != "all" && len(targets) == 1 {
		hash = targets[0].Hash
	}
	if err := config.SetApproval(opts, target, approve, hash); err != nil {
		return explainNotFound(g, target, err)
	}
	names := approvedNames(g, targets, approve)
	if len(names) == 0 { // matched only after name normalization
		names = []string{target}
	}
	fmt.Fprintf(g.Stdout, "%s %s.\n", done, strings.Join(names, ", "))
	return nil
}

// approvedNames are the targets' names, cleaned for one line; an approval
// prints how each changed since it was last approved.
func approvedNames(g *clicore.Globals, targets []model.Server, approve bool) []string {
	names := make([]string, len(targets))
	for i, s := range targets {
		names[i] = textsafe.SanitizeLine(s.Name)
		if approve && s.Approval.Diff != "" {
			fmt.Fprintf(g.Stdout, "%s changed since it was last approved:\n", names[i])
			for _, d := range strings.Split(strings.TrimRight(s.Approval.Diff, "\n"), "\n") {
				fmt.Fprintln(g.Stdout, "    "+textsafe.SanitizeLine(d))
			}
		}
	}
	return names
}

// awaiting keeps the servers of targets that are not approved yet.
func awaiting(targets []model.Server) []model.Server {
	var out []model.Server
	for _, s := range targets {
		if s.AwaitsApproval() {
			out = append(out, s)
		}
	}
	return out
}

// confirmApproval shows the person everything each server will run or
// send, as written (config.ApprovalView), and what its sandbox would open
// on this machine (project is the project's root), asks once, and approves exactly
// the definitions shown: each by its hash, so a file changed in between is
// refused rather than approved unseen.
func confirmApproval(g *clicore.Globals, opts config.LoadOptions, project string, servers []model.Server) error {
	names := make([]string, len(servers))
	for i, s := range servers {
		names[i] = textsafe.Escape(s.Name)
		fmt.Fprintf(g.Stdout, "%s: everything it would run or send, as written in its file:\n", names[i])
		writeApprovalView(g.Stdout, s, "  ")
		explainSandbox(s, project, false).write(g.Stdout, opts.Home, "  ")
		if s.Approval.Diff != "" {
			fmt.Fprintln(g.Stdout, "  Changed since you last approved it:")
			for _, d := range strings.Split(strings.TrimRight(s.Approval.Diff, "\n"), "\n") {
				fmt.Fprintln(g.Stdout, "    "+textsafe.Escape(d))
			}
		}
		fmt.Fprintln(g.Stdout)
	}
	yes, err := cliprompt.Confirm(g, fmt.Sprintf("Only approve servers from repositories you trust. Approve %s?", strings.Join(names, ", ")))
	if err != nil {
		return err
	}
	if !yes {
		fmt.Fprintln(g.Stdout, "Nothing approved.")
		return nil
	}
	for _, s := range servers {
		if err := config.SetApproval(opts, s.Name, true, s.Hash); err != nil {
			return explainNotFound(g, s.Name, err)
		}
	}
	fmt.Fprintf(g.Stdout, "Approved %s.\n", strings.Join(names, ", "))
	return nil
}
