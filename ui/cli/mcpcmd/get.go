package mcpcmd

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/cache"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/sandbox"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

func newMCPGetCmd(g *clicore.Globals) *cobra.Command {
	var noConnect bool
	cmd := &cobra.Command{
		Use:   "get NAME",
		Short: "Show everything about one server: source, overrides, definition (secrets masked), approval, policy, live status",
		Long: "Shows the server's definition as configured and, when it may run, connects it (only\n" +
			"that server) to show its live status: connected with its counts, or why not.\n" +
			"--no-connect only reads the config files.",
		Example: "  mcpdeck mcp get github\n  mcpdeck mcp get github --json\n  mcpdeck mcp get github --no-connect",
		Args:    cliargs.ExactArgs(1, "one server NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			lo, err := g.SecretLoadOptions(args[0]) // this one server's: a missing one is named with how to store it
			if err != nil {
				return err
			}
			res, err := g.Load(lo)
			if err != nil {
				return err
			}
			s, ok := res.Server(args[0])
			var live *engine.ServerSnapshot
			if !ok && !noConnect && !res.Enterprise { // an editor's server, found by the engine
				var srv engine.ServerSnapshot
				srv, ok, err = editorStatus(cmd.Context(), g, args[0])
				if err != nil {
					return clierr.Cancelled(err)
				}
				s, live = editorServer(srv), &srv
			}
			if !ok {
				_ = reportFileProblems(g.Stderr, res.Problems)
				return errNoServer(res, args[0])
			}
			if !noConnect && live == nil {
				srv, ok, err := liveStatus(cmd.Context(), g, s)
				if err != nil {
					return clierr.Cancelled(err)
				}
				if ok {
					live = &srv
				}
			}
			box := explainSandbox(s, res.ProjectRoot, !noConnect)
			if g.JSON {
				doc := struct {
					serverView
					// SandboxProfile is what the sandbox opens on this
					// machine now (sandbox.View).
					SandboxProfile *sandbox.View `json:"sandboxProfile,omitempty"`
					Status         *liveJSON     `json:"status,omitempty"`
				}{serverView: newServerView(s).withProtocol(s, protocolMemory()), SandboxProfile: box.View}
				if live != nil {
					doc.Status = newLiveJSON(*live)
				}
				return cliout.WriteJSON(g.Stdout, doc)
			}
			failed := live != nil && clisession.OutcomeOf(*live) == status.OutcomeFailed
			writeServerDetails(g.Stdout, s, protocolMemory(), failed, box, lo.Home)
			if live != nil {
				fmt.Fprintf(g.Stdout, "  %-15s %s\n", "Status:", clisession.StatusText(*live))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&noConnect, "no-connect", false, "only read the config files: do not start or contact the server")
	return cmd
}

// writeServerDetails prints one server for people; failed says that the
// live status printed after it is a failure, which "Config problems: none"
// must not seem to contradict.
func writeServerDetails(w io.Writer, s model.Server, mem map[string]cache.RememberedProtocol, failed bool, box boxView, home string) {
	v := newServerView(s).withProtocol(s, mem)
	line := func(label, value string) { fmt.Fprintf(w, "  %-15s %s\n", label+":", value) }
	fmt.Fprintln(w, textsafe.SanitizeLine(s.Name)+":")
	line("Scope", fmt.Sprintf("%s (%s)", s.Scope, textsafe.SanitizeLine(s.Source)))
	for _, o := range s.Overrides {
		line("Overrides", fmt.Sprintf("%s (%s)", o.Scope, textsafe.SanitizeLine(o.Source)))
	}
	if s.AwaitsApproval() {
		fmt.Fprintln(w, "  Not approved yet. Everything it would run or send, as written in its file:")
		writeApprovalView(w, s, "    ")
	} else {
		writeDefinition(v, line)
	}
	box.write(w, home, "  ")
	if s.OptsIntoProject() {
		line("In the project", clicore.OptInText())
	}
	if len(s.HomeRelative) > 0 {
		line("Warning", clicore.HomeRelativeText(s))
	}
	line("Enabled", yesNo(s.Enabled))
	if s.Approval.Status == model.ApprovalNotNeeded {
		line("Approval", "not needed (not a project server)")
	} else {
		line("Approval", approvalText(s.Approval))
	}
	if s.Approval.Diff != "" {
		fmt.Fprintln(w, "  Changed since approval:")
		for _, d := range strings.Split(strings.TrimRight(s.Approval.Diff, "\n"), "\n") {
			fmt.Fprintln(w, "    "+textsafe.SanitizeLine(d))
		}
	}
	line("Policy", textsafe.SanitizeLine(policyText(s.Policy)))
	line("Config hash", s.Hash)
	writeConfigProblems(w, s, failed, box.problems(home))
	line("Runs", whyNot(s))
}

// writeConfigProblems lists what is wrong with the definition: its
// problems (which keep it from running), what its sandbox does not open of
// what it asks (boxProblems) and the fields mcpdeck does not use. "none" only when nothing is wrong and the live status is not a
// failure: next to "✗ failed" it would read as "nothing is wrong".
func writeConfigProblems(w io.Writer, s model.Server, failed bool, boxProblems []string) {
	var probs []string
	for _, p := range s.Problems {
		probs = append(probs, textsafe.SanitizeLine(p.Error()))
	}
	probs = append(probs, boxProblems...)
	for _, u := range config.UnknownFields(s.Raw) {
		probs = append(probs, unknownFieldText(u))
	}
	switch {
	case len(probs) > 0:
		fmt.Fprintln(w, "  Config problems:")
		for _, p := range probs {
			fmt.Fprintln(w, "    "+p)
		}
	case !failed:
		fmt.Fprintln(w, "  Config problems: none")
	}
}

// writeDefinition prints the definition of v, secrets masked, with line.
func writeDefinition(v serverView, line func(label, value string)) {
	line("Transport", textsafe.SanitizeLine(string(v.Transport)))
	line("Protocol", protocolText(v))
	if v.Command != "" {
		line("Command", textsafe.QuoteCommand(v.Command, v.Args))
	}
	if v.Cwd != "" {
		line("Cwd", textsafe.SanitizeLine(v.Cwd))
	}
	if v.RunsIn != "" {
		line("Runs in", textsafe.SanitizeLine(v.RunsIn))
	}
	if v.URL != "" {
		line("URL", textsafe.SanitizeLine(v.URL))
	}
	if v.Builtin != "" {
		line("Built-in", textsafe.SanitizeLine(v.Builtin))
	}
	for _, k := range slices.Sorted(maps.Keys(v.Env)) {
		line("Env", textsafe.SanitizeLine(k+"="+v.Env[k]))
	}
	for _, k := range slices.Sorted(maps.Keys(v.Headers)) {
		line("Header", textsafe.SanitizeLine(k+": "+v.Headers[k]))
	}
	if v.HeadersHelper != "" {
		line("Headers helper", textsafe.SanitizeLine(v.HeadersHelper))
	}
	if v.Sandbox != nil {
		line("Sandbox", textsafe.SanitizeLine(v.Sandbox.Summary()))
	}
	if len(v.SandboxEnv) > 0 {
		line("Sandbox env", textsafe.SanitizeLine(strings.Join(v.SandboxEnv, " ")))
	}
	if len(v.StoreSecrets) > 0 {
		line("Secrets", strings.Join(v.StoreSecrets, ", ")+" from mcpdeck's secret store (values not shown)")
	}
	if o := v.OAuth; o != nil {
		var parts []string
		if o.ClientID != "" {
			parts = append(parts, "client id "+o.ClientID)
		}
		if o.CallbackPort != 0 {
			parts = append(parts, fmt.Sprintf("callback port %d", o.CallbackPort))
		}
		if o.AuthServerMetadataURL != "" {
			parts = append(parts, "metadata "+o.AuthServerMetadataURL)
		}
		if len(o.Scopes) > 0 {
			parts = append(parts, "scopes "+strings.Join(o.Scopes, " "))
		}
		line("OAuth", textsafe.SanitizeLine(strings.Join(parts, ", ")))
	}
}

// whyNot says whether the server may run and, if not, its first blocker
// (model.Server.Blockers, the engine's rule and order).
func whyNot(s model.Server) string {
	bs := s.Blockers()
	if len(bs) == 0 {
		return "yes"
	}
	return "no: " + status.CannotRun(bs[0], s.Name, status.InCLI)
}
